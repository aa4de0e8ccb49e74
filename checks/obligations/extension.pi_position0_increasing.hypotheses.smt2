; posreal proof obligation (SMT-LIB 2.6)
; claim:      extension — Length extension (what position interpolation, NTK and YaRN keep)
; check:      extension.pi_position0_increasing
; statement:  PI, position:0 (relative): V strictly increasing on [0, L0) ⇒ every row realized at every L
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun L0 () Int)
(declare-fun L () Int)
(declare-fun i () Int)
(declare-fun k () Int)
(declare-fun xt () Real)
(declare-fun xk () Real)
(assert
 (>= L0 1))
(assert
 (>= L L0))
(assert
 (>= i 0))
(assert
 (< i L))
(assert
 (>= k 0))
(assert
 (< k i))
(assert
 (let ((?x1 (to_real L0)))
 (let ((?x2 (* (to_real i) ?x1)))
 (let ((?x3 (to_real L)))
 (let ((?x4 (* xt ?x3)))
 (= ?x4 ?x2))))))
(assert
 (= (* xk (to_real L)) (* (to_real k) (to_real L0))))
(assert
 (forall ((x Real) (y Real) )(let (($x5 (< x y)))
 (=> (and (>= x 0.0) $x5 (< y (to_real L0))) $x5)))
 )
(assert
 (= L0 4))
(assert
 (= L 8))
(check-sat)
