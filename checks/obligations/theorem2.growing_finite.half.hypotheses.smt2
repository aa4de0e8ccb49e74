; posreal proof obligation (SMT-LIB 2.6)
; claim:      theorem2 — Theorem 2 (relative deep-row characterization)
; check:      theorem2.growing_finite[half]
; statement:  half: its last row n-1 is realized only if n ≤ 2δ* + 2 (finitely many lengths)
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun n () Int)
(declare-fun N () Int)
(declare-fun dstar () Int)
(declare-fun r (Int) Real)
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
 (and (>= (div (- n 1) 2) 0) (< (div (- n 1) 2) n)))
(assert
 (forall ((j Int) )(let (($x2 (> (r (- (- n 1) (div (- n 1) 2))) (r (- (- n 1) j)))))
(let (($x3 (>= j 0)))
(let (($x4 (and $x3 (<= j (- n 1)) (and (distinct j (div (- n 1) 2)) true))))
(=> $x4 $x2)))))
)
(check-sat)
