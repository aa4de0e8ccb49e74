; posreal proof obligation (SMT-LIB 2.6)
; claim:      extension — Length extension (what position interpolation, NTK and YaRN keep)
; check:      extension.pi_copy_dense
; statement:  PI, copy: every rational x ∈ [0, L0) \ {L0/2} is a key other than the target on the last row of some even L
; obligation: encoding (quantified): hypotheses ∧ ¬conclusion
; expected:   unsat — the statement holds
; decide:     z3 -t:20000 FILE   or   cvc5 --enum-inst --tlimit-per=20000 FILE
(set-info :status unsat)
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
 (let ((?x1 (* 2 a)))
 (and (distinct ?x1 b) true)))
(assert
 (let ((?x1 (* 2 a)))
(let ((?x2 (* ?x1 L0)))
(let (($x3 (and (= (mod (* (* 2 b) L0) 2) 0) (>= (* (* 2 b) L0) L0) (>= ?x2 0) (< ?x2 (* (* 2 b) L0)) (and (distinct ?x2 (div (* (* 2 b) L0) 2)) true) (= (* ?x2 b) (* a (* (* 2 b) L0))))))
(not $x3)))))
(check-sat)
