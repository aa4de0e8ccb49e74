; posreal proof obligation (SMT-LIB 2.6)
; claim:      extension — Length extension (what position interpolation, NTK and YaRN keep)
; check:      extension.pi_copy_even
; statement:  PI, copy: L0, L even and V(L0/2) > V(x) on [0, L0) \ {L0/2} ⇒ every row of R_L realized
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun L0 () Int)
(declare-fun L () Int)
(declare-fun b () Int)
(declare-fun i () Int)
(declare-fun k () Int)
(declare-fun xt () Real)
(declare-fun xk () Real)
(assert
 (>= L0 2))
(assert
 (>= L L0))
(assert
 (let ((?x1 (* 2 b)))
 (<= ?x1 L)))
(assert
 (<= L (+ (* 2 b) 1)))
(assert
 (<= b i))
(assert
 (< i L))
(assert
 (>= k 0))
(assert
 (<= k i))
(assert
 (and (distinct k b) true))
(assert
 (let ((?x2 (to_real L0)))
 (let ((?x3 (* (to_real b) ?x2)))
 (let ((?x4 (to_real L)))
 (let ((?x5 (* xt ?x4)))
 (= ?x5 ?x3))))))
(assert
 (= (* xk (to_real L)) (* (to_real k) (to_real L0))))
(assert
 (= (mod L0 2) 0))
(assert
 (= (mod L 2) 0))
(assert
 (forall ((x Real) )(let ((?x2 (to_real L0)))
 (let ((?x6 (/ ?x2 2.0)))
 (let ((?x7 (- ?x6 ?x6)))
 (let (($x8 (< (- (ite (>= x ?x6) (- x ?x6) (- ?x6 x))) (- (ite (>= ?x6 ?x6) ?x7 ?x7)))))
 (=> (and (>= x 0.0) (< x ?x2) (and (distinct x ?x6) true)) $x8))))))
 )
(assert
 (= L0 4))
(assert
 (= L 8))
(check-sat)
