; posreal proof obligation (SMT-LIB 2.6)
; claim:      theorem2 — Theorem 2 (relative deep-row characterization)
; check:      theorem2.shallow_iff
; statement:  shallow row i < δ* realized for t ⇔ i - t is the unique maximizer of r on {0..i}
; obligation: control (non-strict realization inequality): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun n () Int)
(declare-fun N () Int)
(declare-fun dstar () Int)
(declare-fun i () Int)
(declare-fun r (Int) Real)
(declare-fun t () Int)
(assert
 (>= n 1))
(assert
 (<= n N))
(assert
 (let (($x1 (>= dstar 0)))
 (and $x1 (< dstar N))))
(assert
 (let (($x2 (>= i 0)))
 (and $x2 (< i n))))
(assert
 (forall ((delta Int) )(=> (and (and (>= delta 0) (< delta N)) (and (distinct delta dstar) true)) (> (r dstar) (r delta))))
 )
(assert
 (< i dstar))
(assert
 (let (($x3 (>= t 0)))
 (and $x3 (< t (+ i 1)))))
(assert
 (let (($x4 (forall ((delta Int) )(=> (and (>= delta 0) (<= delta i) (and (distinct delta (- i t)) true)) (> (r (- i t)) (r delta))))
 ))
 (let (($x5 (forall ((j Int) )(=> (and (>= j 0) (<= j i) (and (distinct j t) true)) (>= (r (- i t)) (r (- i j)))))
 ))
 (and (distinct $x5 (and (>= (- i t) 0) (<= (- i t) i) $x4)) true))))
(assert
 (<= N 12))
(check-sat)
