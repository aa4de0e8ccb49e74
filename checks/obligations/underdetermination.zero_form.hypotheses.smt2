; posreal proof obligation (SMT-LIB 2.6)
; claim:      underdetermination — Underdetermination (learned absolute PE)
; check:      underdetermination.zero_form
; statement:  B(0, v) = 0 for every v: from additivity of B in its first argument and 0 + 0 = 0
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-sort Vec 0)
(declare-fun B (Vec Vec) Real)
(declare-fun add (Vec Vec) Vec)
(declare-fun zero () Vec)
(assert
 (forall ((u Vec) (v Vec) (w Vec) )(let ((?x1 (B (add u v) w)))
 (= ?x1 (+ (B u w) (B v w)))))
 )
(assert
 (= (add zero zero) zero))
(check-sat)
