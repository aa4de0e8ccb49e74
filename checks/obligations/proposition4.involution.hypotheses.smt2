; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.involution
; statement:  the shear is an involution: S(Sκ) = κ on the causal triangle
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun i () Int)
(declare-fun j () Int)
(assert
 (>= i 0))
(assert
 (let (($x1 (>= j 0)))
(and $x1 (<= j i))))
(check-sat)
