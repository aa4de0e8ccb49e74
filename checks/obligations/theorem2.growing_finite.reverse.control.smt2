; posreal proof obligation (SMT-LIB 2.6)
; claim:      theorem2 — Theorem 2 (relative deep-row characterization)
; check:      theorem2.growing_finite[reverse]
; statement:  reverse: its last row n-1 is realized only if n ≤ 2δ* + 2 (finitely many lengths)
; obligation: control (a fixed-offset task offset:c in place of the growing task): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun n () Int)
(declare-fun N () Int)
(declare-fun dstar () Int)
(declare-fun r (Int) Real)
(declare-fun c () Int)
(assert
 (>= n 1))
(assert
 (<= n N))
(assert
 (let (($x1 (>= dstar 0)))
 (and $x1 (< dstar N))))
(assert
 (forall ((delta Int) )(=> (and (and (>= delta 0) (< delta N)) (and (distinct delta dstar) true)) (> (r dstar) (r delta))))
 )
(assert
 (> n (+ (* 2 dstar) 2)))
(assert
 (>= c 0))
(assert
 (let ((?x2 (- n 1)))
 (<= c ?x2)))
(assert
 (forall ((j Int) )(let (($x3 (> (r (- (- n 1) (- (- n 1) c))) (r (- (- n 1) j)))))
 (let (($x4 (>= j 0)))
 (let (($x5 (and $x4 (<= j (- n 1)) (and (distinct j (- (- n 1) c)) true))))
 (=> $x5 $x3)))))
 )
(assert
 (<= N 12))
(check-sat)
