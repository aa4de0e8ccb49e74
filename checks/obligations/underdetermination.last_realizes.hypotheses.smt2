; posreal proof obligation (SMT-LIB 2.6)
; claim:      underdetermination — Underdetermination (learned absolute PE)
; check:      underdetermination.last_realizes
; statement:  (b) completion E_j = E_{L0-1}: position:p (p ≤ L0-2) realized at L0 ⇒ every row realized (α_L = 1)
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-sort Vec 0)
(declare-fun L0 () Int)
(declare-fun L () Int)
(declare-fun p () Int)
(declare-fun B (Vec Vec) Real)
(declare-fun E (Int) Vec)
(assert
 (>= L0 1))
(assert
 (> L L0))
(assert
 (>= p 0))
(assert
 (forall ((i Int) )(let (($x1 (forall ((j Int) )(=> (and (>= j 0) (<= j i) (and (distinct j p) true)) (> (B (E i) (E p)) (B (E i) (E j)))))
 ))
 (=> (and (<= p i) (< i L0)) $x1)))
 )
(assert
 (<= p (- L0 2)))
(check-sat)
