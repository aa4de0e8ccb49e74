; posreal proof obligation (SMT-LIB 2.6)
; claim:      escape-content — E2 (content escapes: match by a content head, and where a growing positional part overrides it)
; check:      escape-content.match_exact_condition
; statement:  match: r(0) < r(δ), r strictly decreasing on 1..i and β > r(1) - r(i) realize row i on every token sequence, at every length
; obligation: encoding (quantified): hypotheses ∧ ¬conclusion
; expected:   unsat — the statement holds
; decide:     z3 -t:20000 FILE   or   cvc5 --enum-inst --tlimit-per=20000 FILE
(set-info :status unsat)
(set-logic ALL)
(declare-fun i () Int)
(declare-fun dt () Int)
(declare-fun d () Int)
(declare-fun b () Bool)
(declare-fun r (Int) Real)
(declare-fun beta () Real)
(assert
 (>= i 2))
(assert
 (>= dt 1))
(assert
 (<= dt i))
(assert
 (>= d 0))
(assert
 (<= d i))
(assert
 (and (distinct d dt) true))
(assert
 (let (($x1 (= d 0)))
 (=> $x1 b)))
(assert
 (let (($x2 (not b)))
 (=> (and (>= d 1) (< d dt)) $x2)))
(assert
 (forall ((u Int) )(=> (and (>= u 1) (<= u i)) (< (r 0) (r u))))
 )
(assert
 (forall ((u Int) (v Int) )(=> (and (>= u 1) (< u v) (<= v i)) (> (r u) (r v))))
 )
(assert
 (> beta (- (r 1) (r i))))
(assert
 (<= (+ (r dt) beta) (+ (r d) (ite b beta 0.0))))
(check-sat)
