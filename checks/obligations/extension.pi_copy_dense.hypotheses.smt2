; posreal proof obligation (SMT-LIB 2.6)
; claim:      extension — Length extension (what position interpolation, NTK and YaRN keep)
; check:      extension.pi_copy_dense
; statement:  PI, copy: every rational x ∈ [0, L0) \ {L0/2} is a key other than the target on the last row of some even L
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
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
 (let ((?x1 (* 2 a)))
(and (distinct ?x1 b) true)))
(check-sat)
