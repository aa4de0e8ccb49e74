; posreal proof obligation (SMT-LIB 2.6)
; claim:      theorem2 — Theorem 2 (relative deep-row characterization)
; check:      theorem2.alibi_breaks
; statement:  where it breaks: alibi r(δ) = mδ, m > 0 (no maximizer), realizes position:0 on every row of every length
; obligation: control (drop m > 0 (slope of either sign)): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
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
 (let (($x2 (forall ((j Int) )(=> (and (>= j 1) (<= j i)) (> (* m (to_real i)) (* m (to_real (- i j))))))
 ))
 (not $x2)))
(assert
 (<= n 12))
(check-sat)
