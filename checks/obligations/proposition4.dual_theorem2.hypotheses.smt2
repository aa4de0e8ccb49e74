; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.dual_theorem2
; statement:  dual of Theorem 2: a column kernel with unique maximizer p realizes exactly position:p on rows i ≥ p
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun n () Int)
(declare-fun N () Int)
(declare-fun p () Int)
(declare-fun a (Int) Real)
(declare-fun i () Int)
(declare-fun t () Int)
(assert
 (>= n 1))
(assert
 (<= n N))
(assert
 (let (($x1 (>= p 0)))
 (and $x1 (< p N))))
(assert
 (forall ((k Int) )(=> (and (and (>= k 0) (< k N)) (and (distinct k p) true)) (> (a p) (a k))))
 )
(assert
 (let (($x2 (>= i 0)))
 (and $x2 (< i n))))
(assert
 (let (($x3 (>= t 0)))
 (and $x3 (<= t i))))
(assert
 (>= i p))
(check-sat)
