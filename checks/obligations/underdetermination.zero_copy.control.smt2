; posreal proof obligation (SMT-LIB 2.6)
; claim:      underdetermination — Underdetermination (learned absolute PE)
; check:      underdetermination.zero_copy
; statement:  (a) for copy: completion E_j = 0 and ⌊L/2⌋ ≠ ⌊L0/2⌋ ⇒ no row of R_L is realized (α_L = 0)
; obligation: control (drop ⌊L/2⌋ ≠ ⌊L0/2⌋): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-sort Vec 0)
(declare-fun L0 () Int)
(declare-fun L () Int)
(declare-fun B (Vec Vec) Real)
(declare-fun zero () Vec)
(declare-fun E (Int) Vec)
(declare-fun i () Int)
(assert
 (>= L0 1))
(assert
 (> L L0))
(assert
 (forall ((v Vec) )(= (B zero v) 0.0))
 )
(assert
 (forall ((i Int) )(let (($x1 (forall ((j Int) )(let ((?x2 (E j)))
 (let ((?x3 (E i)))
 (let ((?x4 (B ?x3 ?x2)))
 (let (($x5 (>= j 0)))
 (=> (and $x5 (<= j i) (and (distinct j (- i (div L0 2))) true)) (> (B ?x3 (E (- i (div L0 2)))) ?x4)))))))
 ))
 (=> (and (<= (div L0 2) i) (< i L0)) $x1)))
 )
(assert
 (and (<= (div L 2) i) (< i L)))
(assert
 (forall ((j Int) )(let ((?x6 (E i)))
 (let ((?x7 (ite (< i L0) ?x6 zero)))
 (let ((?x8 (ite (< (- i (div L 2)) L0) (E (- i (div L 2))) zero)))
 (let (($x5 (>= j 0)))
 (=> (and $x5 (<= j i) (and (distinct j (- i (div L 2))) true)) (> (B ?x7 ?x8) (B ?x7 (ite (< j L0) (E j) zero)))))))))
 )
(assert
 (<= L0 12))
(check-sat)
