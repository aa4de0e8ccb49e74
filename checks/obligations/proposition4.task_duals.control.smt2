; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.task_duals
; statement:  S(offset:c) = position:c, S(position:c) = offset:c, S(copy) = middle (same rows)
; obligation: control (the reflection j ↦ n-1-j in place of the shear): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
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
(assert
 (>= i c))
(assert
 (and (distinct (- (- n 1) (- i c)) c) true))
(assert
 (<= n 12))
(check-sat)
