; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.key_set_onto
; statement:  the shear maps each row's key set {0..i} onto itself
; obligation: control (bidirectional key set {0..n-1} in place of the causal {0..i}): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun i () Int)
(declare-fun n () Int)
(declare-fun j () Int)
(assert
 (>= i 0))
(assert
 (> n i))
(assert
 (let (($x1 (>= j 0)))
 (and $x1 (< j n))))
(assert
 (not (and (>= (- i j) 0) (< (- i j) n))))
(assert
 (<= n 12))
(check-sat)
