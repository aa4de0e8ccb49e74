; posreal proof obligation (SMT-LIB 2.6)
; claim:      theorem2 — Theorem 2 (relative deep-row characterization)
; check:      theorem2.position_one_deep_row
; statement:  position:p is realized on at most one deep row per length
; obligation: control (drop depth i ≥ δ* of the two rows): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun n () Int)
(declare-fun N () Int)
(declare-fun dstar () Int)
(declare-fun p () Int)
(declare-fun r (Int) Real)
(declare-fun i1 () Int)
(declare-fun i2 () Int)
(assert
 (>= n 1))
(assert
 (<= n N))
(assert
 (let (($x1 (>= dstar 0)))
 (and $x1 (< dstar N))))
(assert
 (>= p 0))
(assert
 (forall ((delta Int) )(=> (and (and (>= delta 0) (< delta N)) (and (distinct delta dstar) true)) (> (r dstar) (r delta))))
 )
(assert
 (and (<= p i1) (< i1 n)))
(assert
 (and (<= p i2) (< i2 n)))
(assert
 (and (distinct i1 i2) true))
(assert
 (forall ((j Int) )(=> (and (>= j 0) (<= j i1) (and (distinct j p) true)) (> (r (- i1 p)) (r (- i1 j)))))
 )
(assert
 (forall ((j Int) )(=> (and (>= j 0) (<= j i2) (and (distinct j p) true)) (> (r (- i2 p)) (r (- i2 j)))))
 )
(assert
 (<= N 12))
(check-sat)
