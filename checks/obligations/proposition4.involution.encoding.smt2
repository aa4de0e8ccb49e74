; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.involution
; statement:  the shear is an involution: S(Sκ) = κ on the causal triangle
; obligation: encoding (quantifier-free): hypotheses ∧ ¬conclusion
; expected:   unsat — the statement holds
; decide:     z3 -t:20000 FILE   or   cvc5 --enum-inst --tlimit-per=20000 FILE
(set-info :status unsat)
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
(and (distinct (kappa i (- i (- i j))) ?x2) true)))
(check-sat)
