; posreal proof obligation (SMT-LIB 2.6)
; claim:      escape-induction — E3 (the induction circuit: α^ind from layer 1's offset:1 routes)
; check:      escape-induction.alpha_one_implies_induction
; statement:  α_L(Φ, offset:1) = 1 implies every induction row is realized by the circuit, at every length n = 2m + 1
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun m () Int)
(declare-fun n () Int)
(declare-fun i () Int)
(declare-fun route (Int) Int)
(assert
 (>= m 2))
(assert
 (= n (+ (* 2 m) 1)))
(assert
 (<= (+ m 1) i))
(assert
 (<= i (- (* 2 m) 1)))
(assert
 (= (route 0) 0))
(assert
 (forall ((k Int) )(=> (and (>= k 0) (< k n)) (and (>= (route k) 0) (<= (route k) k))))
 )
(assert
 (forall ((k Int) )(=> (and (>= k 1) (< k n)) (= (route k) (- k 1))))
)
(check-sat)
