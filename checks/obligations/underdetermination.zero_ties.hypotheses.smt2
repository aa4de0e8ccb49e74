; posreal proof obligation (SMT-LIB 2.6)
; claim:      underdetermination — Underdetermination (learned absolute PE)
; check:      underdetermination.zero_ties
; statement:  (a) completion E_j = 0: every new row i ≥ L0 has all keys tied (all L0, L)
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-sort Vec 0)
(declare-fun L0 () Int)
(declare-fun L () Int)
(declare-fun B (Vec Vec) Real)
(declare-fun add (Vec Vec) Vec)
(declare-fun zero () Vec)
(assert
 (>= L0 1))
(assert
 (> L L0))
(assert
 (forall ((u Vec) (v Vec) (w Vec) )(let ((?x1 (B (add u v) w)))
 (= ?x1 (+ (B u w) (B v w)))))
 )
(assert
 (= (add zero zero) zero))
(check-sat)
