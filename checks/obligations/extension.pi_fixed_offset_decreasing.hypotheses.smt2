; posreal proof obligation (SMT-LIB 2.6)
; claim:      extension — Length extension (what position interpolation, NTK and YaRN keep)
; check:      extension.pi_fixed_offset_decreasing
; statement:  PI, offset:c (c ≥ 1): V strictly decreasing on [0, (c+1)L0/L] ⇒ no row i ≥ c+1 is realized
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun L0 () Int)
(declare-fun L () Int)
(declare-fun c () Int)
(declare-fun i () Int)
(declare-fun xt () Real)
(declare-fun xn () Real)
(assert
 (>= L0 1))
(assert
 (>= L L0))
(assert
 (>= c 1))
(assert
 (let ((?x1 (+ c 1)))
 (>= i ?x1)))
(assert
 (< i L))
(assert
 (let ((?x2 (to_real L0)))
 (let ((?x3 (to_real c)))
 (let ((?x4 (* ?x3 ?x2)))
 (let ((?x5 (to_real L)))
 (let ((?x6 (* xt ?x5)))
 (= ?x6 ?x4)))))))
(assert
 (= (* xn (to_real L)) (* (to_real (- c 1)) (to_real L0))))
(assert
 (forall ((x Real) (y Real) )(let (($x7 (<= y (* (to_real (+ c 1)) (/ (to_real L0) (to_real L))))))
 (let (($x8 (>= x 0.0)))
 (=> (and $x8 (< x y) $x7) (> (- x) (- y))))))
 )
(assert
 (= L0 4))
(assert
 (= L 8))
(assert
 (= c 1))
(check-sat)
