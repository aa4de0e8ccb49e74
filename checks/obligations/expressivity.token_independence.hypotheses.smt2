; posreal proof obligation (SMT-LIB 2.6)
; claim:      expressivity — Expressivity bound (static routing and class ceiling)
; check:      expressivity.token_independence
; statement:  (a) static routing: a positional-only head's attention depends on n alone, never on the tokens
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun n () Int)
(declare-fun i () Int)
(declare-fun j () Int)
(declare-fun j2 () Int)
(declare-fun c () Real)
(assert
 (>= n 1))
(assert
 (let (($x1 (>= i 0)))
 (and $x1 (< i n))))
(assert
 (>= j 0))
(assert
 (<= j i))
(assert
 (>= j2 0))
(assert
 (<= j2 i))
(assert
 (= c 0.0))
(check-sat)
