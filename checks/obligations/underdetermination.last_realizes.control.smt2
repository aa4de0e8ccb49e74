; posreal proof obligation (SMT-LIB 2.6)
; claim:      underdetermination — Underdetermination (learned absolute PE)
; check:      underdetermination.last_realizes
; statement:  (b) completion E_j = E_{L0-1}: position:p (p ≤ L0-2) realized at L0 ⇒ every row realized (α_L = 1)
; obligation: control (allow p = L0 - 1 (drop p ≤ L0 - 2)): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-sort Vec 0)
(declare-fun L0 () Int)
(declare-fun L () Int)
(declare-fun p () Int)
(declare-fun B (Vec Vec) Real)
(declare-fun E (Int) Vec)
(declare-fun i () Int)
(declare-fun j () Int)
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
 (let ((?x2 (- L0 1)))
 (<= p ?x2)))
(assert
 (and (<= p i) (< i L)))
(assert
 (>= j 0))
(assert
 (<= j i))
(assert
 (and (distinct j p) true))
(assert
 (let ((?x2 (- L0 1)))
 (let ((?x3 (E ?x2)))
 (let ((?x4 (E i)))
 (let ((?x5 (ite (< i L0) ?x4 ?x3)))
 (<= (B ?x5 (ite (< p L0) (E p) ?x3)) (B ?x5 (ite (< j L0) (E j) ?x3))))))))
(assert
 (<= L0 12))
(assert
 (<= L 12))
(check-sat)
