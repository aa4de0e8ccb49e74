; posreal proof obligation (SMT-LIB 2.6)
; claim:      theorem2 — Theorem 2 (relative deep-row characterization)
; check:      theorem2.alibi_breaks
; statement:  where it breaks: alibi r(δ) = mδ, m > 0 (no maximizer), realizes position:0 on every row of every length
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun n () Int)
(declare-fun i () Int)
(declare-fun m () Real)
(assert
 (>= n 1))
(assert
 (let (($x1 (>= i 0)))
 (and $x1 (< i n))))
(assert
 (> m 0.0))
(check-sat)
