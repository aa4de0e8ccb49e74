; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.margins
; statement:  margins are preserved: γ_i(Sκ; Sτ) = γ_i(κ; τ) for every kernel, row and target
; obligation: encoding (quantified): hypotheses ∧ ¬conclusion
; expected:   unsat — the statement holds
; decide:     z3 -t:20000 FILE   or   cvc5 --enum-inst --tlimit-per=20000 FILE
(set-info :status unsat)
(set-logic ALL)
(declare-fun i () Int)
(declare-fun t () Int)
(declare-fun kappa (Int Int) Real)
(declare-fun m1 () Real)
(declare-fun m2 () Real)
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
(assert
 (let (($x7 (exists ((k Int) )(let ((?x8 (- (kappa i (- i (- i t))) (kappa i (- i k)))))
 (let ((?x9 (- i t)))
 (let (($x10 (and (distinct k ?x9) true)))
 (let (($x4 (>= k 0)))
 (let (($x5 (and $x4 (<= k i))))
 (and $x5 $x10 (= m2 ?x8))))))))
 ))
 (let (($x11 (forall ((j Int) )(let ((?x8 (- (kappa i (- i (- i t))) (kappa i (- i j)))))
 (let ((?x9 (- i t)))
 (let (($x10 (and (distinct j ?x9) true)))
 (let (($x4 (>= j 0)))
 (let (($x5 (and $x4 (<= j i))))
 (=> (and $x5 $x10) (<= m2 ?x8))))))))
 ))
 (and $x11 $x7))))
(assert
 (and (distinct m1 m2) true))
(check-sat)
