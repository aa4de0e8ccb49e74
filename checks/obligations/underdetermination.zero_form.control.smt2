; posreal proof obligation (SMT-LIB 2.6)
; claim:      underdetermination — Underdetermination (learned absolute PE)
; check:      underdetermination.zero_form
; statement:  B(0, v) = 0 for every v: from additivity of B in its first argument and 0 + 0 = 0
; obligation: control (drop additivity of B in its first argument): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-sort Vec 0)
(declare-fun zero () Vec)
(declare-fun add (Vec Vec) Vec)
(declare-fun B (Vec Vec) Real)
(declare-fun w () Vec)
(assert
 (= (add zero zero) zero))
(assert
 (let ((?x1 (B zero w)))
(and (distinct ?x1 0.0) true)))
(check-sat)
