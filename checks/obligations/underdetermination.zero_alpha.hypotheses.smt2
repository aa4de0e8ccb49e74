; posreal proof obligation (SMT-LIB 2.6)
; claim:      underdetermination — Underdetermination (learned absolute PE)
; check:      underdetermination.zero_alpha
; statement:  (a') completion E_j = 0, targets independent of n, realized at L0: row i < L is realized iff i < L0, so α_L = |R_L ∩ [0, L0)| / |R_L|
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-sort Vec 0)
(declare-fun L0 () Int)
(declare-fun L () Int)
(declare-fun B (Vec Vec) Real)
(declare-fun zero () Vec)
(declare-fun tgt (Int) Int)
(declare-fun i () Int)
(declare-fun E (Int) Vec)
(declare-fun scored (Int) Bool)
(assert
 (>= L0 1))
(assert
 (> L L0))
(assert
 (forall ((v Vec) )(= (B zero v) 0.0))
 )
(assert
 (let ((?x1 (tgt i)))
 (>= ?x1 0)))
(assert
 (let ((?x1 (tgt i)))
 (<= ?x1 i)))
(assert
 (forall ((i Int) )(let (($x2 (forall ((j Int) )(=> (and (>= j 0) (<= j i) (and (distinct j (tgt i)) true)) (> (B (E i) (E (tgt i))) (B (E i) (E j)))))
 ))
 (=> (and (and (>= i 0) (< i L0)) (scored i)) $x2)))
 )
(assert
 (let (($x3 (>= i 1)))
 (and $x3 (< i L0))))
(assert
 (scored i))
(check-sat)
