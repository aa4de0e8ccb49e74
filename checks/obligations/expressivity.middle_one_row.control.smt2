; posreal proof obligation (SMT-LIB 2.6)
; claim:      expressivity — Expressivity bound (static routing and class ceiling)
; check:      expressivity.middle_one_row
; statement:  (b) a free relative kernel realizes at most one row of middle, at every length
; obligation: control (drop h = ⌊n/2⌋ (keep 0 ≤ h < n)): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun n () Int)
(declare-fun i1 () Int)
(declare-fun h () Int)
(declare-fun i2 () Int)
(declare-fun r (Int) Real)
(assert
 (>= n 1))
(assert
 (and (<= h i1) (< i1 n)))
(assert
 (and (<= h i2) (< i2 n)))
(assert
 (and (distinct i1 i2) true))
(assert
 (forall ((k Int) )(=> (and (>= k 0) (<= k i1) (and (distinct k h) true)) (> (r (- i1 h)) (r (- i1 k)))))
 )
(assert
 (forall ((k Int) )(=> (and (>= k 0) (<= k i2) (and (distinct k h) true)) (> (r (- i2 h)) (r (- i2 k)))))
 )
(assert
 (>= h 0))
(assert
 (<= n 12))
(check-sat)
