; posreal proof obligation (SMT-LIB 2.6)
; claim:      theorem2 — Theorem 2 (relative deep-row characterization)
; check:      theorem2.deep_if
; statement:  deep row i ≥ δ* is realized for t = i - δ* (all N, n, i)
; obligation: control (maximizer not unique (r(δ*) ≥ r(δ))): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun n () Int)
(declare-fun N () Int)
(declare-fun dstar () Int)
(declare-fun i () Int)
(declare-fun t () Int)
(declare-fun r (Int) Real)
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
 (>= i dstar))
(assert
 (= t (- i dstar)))
(assert
 (forall ((delta Int) )(=> (and (and (>= delta 0) (< delta N)) (and (distinct delta dstar) true)) (>= (r dstar) (r delta))))
 )
(assert
 (let (($x3 (forall ((j Int) )(=> (and (>= j 0) (<= j i) (and (distinct j t) true)) (> (r (- i t)) (r (- i j)))))
 ))
 (not $x3)))
(assert
 (<= N 12))
(check-sat)
