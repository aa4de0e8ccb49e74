; posreal proof obligation (SMT-LIB 2.6)
; claim:      expressivity — Expressivity bound (static routing and class ceiling)
; check:      expressivity.middle_one_row
; statement:  (b) a free relative kernel realizes at most one row of middle, at every length
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun n () Int)
(declare-fun h () Int)
(declare-fun i1 () Int)
(declare-fun r (Int) Real)
(assert
 (>= n 1))
(assert
 (let ((?x1 (* 2 h)))
 (<= ?x1 n)))
(assert
 (<= n (+ (* 2 h) 1)))
(assert
 (and (<= h i1) (< i1 n)))
(assert
 (forall ((k Int) )(=> (and (>= k 0) (<= k i1) (and (distinct k h) true)) (> (r (- i1 h)) (r (- i1 k)))))
)
(check-sat)
