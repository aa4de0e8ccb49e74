; posreal proof obligation (SMT-LIB 2.6)
; claim:      extension — Length extension (what position interpolation, NTK and YaRN keep)
; check:      extension.pi_copy_dense
; statement:  PI, copy: every rational x ∈ [0, L0) \ {L0/2} is a key other than the target on the last row of some even L
; obligation: control (drop x ≠ L0/2): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun L0 () Int)
(declare-fun a () Int)
(declare-fun b () Int)
(assert
 (>= L0 2))
(assert
 (= (mod L0 2) 0))
(assert
 (>= a 0))
(assert
 (< a b))
(assert
 (let ((?x1 (* (* 2 a) L0)))
 (let (($x2 (and (= (mod (* (* 2 b) L0) 2) 0) (>= (* (* 2 b) L0) L0) (>= ?x1 0) (< ?x1 (* (* 2 b) L0)) (and (distinct ?x1 (div (* (* 2 b) L0) 2)) true) (= (* ?x1 b) (* a (* (* 2 b) L0))))))
 (not $x2))))
(assert
 (<= b 12))
(assert
 (<= L0 12))
(check-sat)
