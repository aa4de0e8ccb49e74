; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.involution
; statement:  the shear is an involution: S(Sκ) = κ on the causal triangle
; obligation: control (cyclic shift j ↦ (j+1) mod (i+1) in place of the shear): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun i () Int)
(declare-fun j () Int)
(declare-fun kappa (Int Int) Real)
(assert
 (>= i 0))
(assert
 (let (($x1 (>= j 0)))
 (and $x1 (<= j i))))
(assert
 (let ((?x2 (kappa i j)))
 (let ((?x3 (kappa i (mod (+ (mod (+ j 1) (+ i 1)) 1) (+ i 1)))))
 (and (distinct ?x3 ?x2) true))))
(assert
 (<= i 12))
(check-sat)
