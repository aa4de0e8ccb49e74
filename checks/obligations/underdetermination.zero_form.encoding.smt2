; posreal proof obligation (SMT-LIB 2.6)
; claim:      underdetermination — Underdetermination (learned absolute PE)
; check:      underdetermination.zero_form
; statement:  B(0, v) = 0 for every v: from additivity of B in its first argument and 0 + 0 = 0
; obligation: encoding (quantified): hypotheses ∧ ¬conclusion
; expected:   unsat — the statement holds
; decide:     z3 -t:20000 FILE   or   cvc5 --enum-inst --tlimit-per=20000 FILE
(set-info :status unsat)
(set-logic ALL)
(declare-sort Vec 0)
(declare-fun B (Vec Vec) Real)
(declare-fun add (Vec Vec) Vec)
(declare-fun zero () Vec)
(declare-fun w () Vec)
(assert
 (forall ((u Vec) (v Vec) (w Vec) )(let ((?x1 (B (add u v) w)))
 (= ?x1 (+ (B u w) (B v w)))))
 )
(assert
 (= (add zero zero) zero))
(assert
 (let ((?x2 (B zero w)))
(and (distinct ?x2 0.0) true)))
(check-sat)
