; posreal proof obligation (SMT-LIB 2.6)
; claim:      theorem2 — Theorem 2 (relative deep-row characterization)
; check:      theorem2.shallow_iff
; statement:  shallow row i < δ* realized for t ⇔ i - t is the unique maximizer of r on {0..i}
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
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
(check-sat)
