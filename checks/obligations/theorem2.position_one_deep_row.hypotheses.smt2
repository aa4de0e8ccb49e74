; posreal proof obligation (SMT-LIB 2.6)
; claim:      theorem2 — Theorem 2 (relative deep-row characterization)
; check:      theorem2.position_one_deep_row
; statement:  position:p is realized on at most one deep row per length
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
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
 (>= i1 dstar))
(assert
 (>= i2 dstar))
(check-sat)
