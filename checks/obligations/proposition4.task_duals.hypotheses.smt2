; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.task_duals
; statement:  S(offset:c) = position:c, S(position:c) = offset:c, S(copy) = middle (same rows)
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun c () Int)
(declare-fun n () Int)
(declare-fun i () Int)
(assert
 (>= c 0))
(assert
 (< i n))
(check-sat)
