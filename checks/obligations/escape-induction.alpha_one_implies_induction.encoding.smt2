; posreal proof obligation (SMT-LIB 2.6)
; claim:      escape-induction — E3 (the induction circuit: α^ind from layer 1's offset:1 routes)
; check:      escape-induction.alpha_one_implies_induction
; statement:  α_L(Φ, offset:1) = 1 implies every induction row is realized by the circuit, at every length n = 2m + 1
; obligation: encoding (quantified): hypotheses ∧ ¬conclusion
; expected:   unsat — the statement holds
; decide:     z3 -t:20000 FILE   or   cvc5 --enum-inst --tlimit-per=20000 FILE
(set-info :status unsat)
(set-logic ALL)
(declare-fun m () Int)
(declare-fun n () Int)
(declare-fun i () Int)
(declare-fun route (Int) Int)
(declare-fun j () Int)
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
(assert
 (let (($x1 (>= j 0)))
(let (($x2 (and $x1 (<= j i) (and (distinct j (+ (- i m) 1)) true) (= (route j) (- i m)))))
(let (($x3 (= (route i) i)))
(or (and (distinct (route (+ (- i m) 1)) (- i m)) true) $x3 $x2)))))
(check-sat)
