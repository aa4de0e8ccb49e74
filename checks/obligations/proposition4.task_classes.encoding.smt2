; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.task_classes
; statement:  S maps fixed-offset tasks to fixed-position tasks and back, hence growing to growing
; obligation: encoding (quantified): hypotheses ∧ ¬conclusion
; expected:   unsat — the statement holds
; decide:     z3 -t:20000 FILE   or   cvc5 --enum-inst --tlimit-per=20000 FILE
(set-info :status unsat)
(set-logic ALL)
(declare-fun t (Int Int) Int)
(declare-fun scored (Int Int) Bool)
(assert
 (forall ((nn Int) (ii Int) )(let (($x1 (scored nn ii)))
 (=> $x1 (and (>= (t nn ii) 0) (<= (t nn ii) ii)))))
 )
(assert
 (let (($x2 (exists ((cc Int) )(forall ((nn Int) (ii Int) )(let (($x1 (scored nn ii)))
(=> $x1 (= (- ii (t nn ii)) cc))))
)
))
(let (($x3 (exists ((cc Int) )(forall ((nn Int) (ii Int) )(let (($x1 (scored nn ii)))
(=> $x1 (= (t nn ii) cc))))
)
))
(let (($x4 (exists ((cc Int) )(forall ((nn Int) (ii Int) )(let (($x1 (scored nn ii)))
(=> $x1 (= (- ii (- ii (t nn ii))) cc))))
)
))
(or (and (distinct $x4 $x3) true) (and (distinct $x2 $x2) true))))))
(check-sat)
