; posreal proof obligation (SMT-LIB 2.6)
; claim:      underdetermination — Underdetermination (learned absolute PE)
; check:      underdetermination.zero_ties
; statement:  (a) completion E_j = 0: every new row i ≥ L0 has all keys tied (all L0, L)
; obligation: control (drop additivity of B in its first argument): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-sort Vec 0)
(declare-fun L0 () Int)
(declare-fun L () Int)
(declare-fun i () Int)
(declare-fun j () Int)
(declare-fun j2 () Int)
(declare-fun B (Vec Vec) Real)
(declare-fun zero () Vec)
(declare-fun E (Int) Vec)
(declare-fun add (Vec Vec) Vec)
(assert
 (>= L0 1))
(assert
 (> L L0))
(assert
 (let (($x1 (<= L0 i)))
 (and $x1 (< i L))))
(assert
 (>= j 0))
(assert
 (<= j i))
(assert
 (>= j2 0))
(assert
 (<= j2 i))
(assert
 (let ((?x2 (E i)))
 (let ((?x3 (ite (< i L0) ?x2 zero)))
 (and (distinct (B ?x3 (ite (< j L0) (E j) zero)) (B ?x3 (ite (< j2 L0) (E j2) zero))) true))))
(assert
 (= (add zero zero) zero))
(assert
 (<= L 12))
(check-sat)
