; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.margins
; statement:  margins are preserved: γ_i(Sκ; Sτ) = γ_i(κ; τ) for every kernel, row and target
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun i () Int)
(declare-fun t () Int)
(declare-fun kappa (Int Int) Real)
(declare-fun m1 () Real)
(assert
 (>= i 1))
(assert
 (let (($x1 (>= t 0)))
 (and $x1 (<= t i))))
(assert
 (let (($x2 (exists ((k Int) )(let (($x3 (and (distinct k t) true)))
(let (($x4 (>= k 0)))
(let (($x5 (and $x4 (<= k i))))
(and $x5 $x3 (= m1 (- (kappa i t) (kappa i k))))))))
))
(let (($x6 (forall ((j Int) )(=> (and (and (>= j 0) (<= j i)) (and (distinct j t) true)) (<= m1 (- (kappa i t) (kappa i j)))))
))
(and $x6 $x2))))
(check-sat)
