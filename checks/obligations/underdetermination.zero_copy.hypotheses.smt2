; posreal proof obligation (SMT-LIB 2.6)
; claim:      underdetermination — Underdetermination (learned absolute PE)
; check:      underdetermination.zero_copy
; statement:  (a) for copy: completion E_j = 0 and ⌊L/2⌋ ≠ ⌊L0/2⌋ ⇒ no row of R_L is realized (α_L = 0)
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
(declare-fun E (Int) Vec)
(assert
 (>= L0 1))
(assert
 (> L L0))
(assert
 (forall ((v Vec) )(= (B zero v) 0.0))
 )
(assert
 (forall ((i Int) )(let (($x1 (forall ((j Int) )(let ((?x2 (E i)))
 (let ((?x3 (B ?x2 (E j))))
 (let (($x4 (>= j 0)))
 (=> (and $x4 (<= j i) (and (distinct j (- i (div L0 2))) true)) (> (B ?x2 (E (- i (div L0 2)))) ?x3))))))
 ))
 (=> (and (<= (div L0 2) i) (< i L0)) $x1)))
 )
(assert
 (let ((?x5 (div L0 2)))
(let ((?x6 (div L 2)))
(and (distinct ?x6 ?x5) true))))
(check-sat)
