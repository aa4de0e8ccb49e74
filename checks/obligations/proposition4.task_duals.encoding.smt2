; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.task_duals
; statement:  S(offset:c) = position:c, S(position:c) = offset:c, S(copy) = middle (same rows)
; obligation: encoding (quantifier-free): hypotheses ∧ ¬conclusion
; expected:   unsat — the statement holds
; decide:     z3 -t:20000 FILE   or   cvc5 --enum-inst --tlimit-per=20000 FILE
(set-info :status unsat)
(set-logic ALL)
(declare-fun c () Int)
(declare-fun n () Int)
(declare-fun i () Int)
(assert
 (>= c 0))
(assert
 (< i n))
(assert
 (let (($x1 (and (>= i (div n 2)) (and (distinct (- i (- i (div n 2))) (div n 2)) true))))
(or (and (>= i c) (and (distinct (- i (- i c)) c) true)) (and (>= i c) (and (distinct (- i c) (- i c)) true)) $x1)))
(check-sat)
