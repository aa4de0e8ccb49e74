; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.task_classes
; statement:  S maps fixed-offset tasks to fixed-position tasks and back, hence growing to growing
; obligation: hypotheses (hypotheses alone): the hypotheses alone
; expected:   sat — the hypotheses are consistent (the proof is not vacuous)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun t (Int Int) Int)
(declare-fun scored (Int Int) Bool)
(assert
 (forall ((nn Int) (ii Int) )(let (($x1 (scored nn ii)))
 (=> $x1 (and (>= (t nn ii) 0) (<= (t nn ii) ii)))))
 )
(assert
 (exists ((cc Int) )(forall ((nn Int) (ii Int) )(let (($x1 (scored nn ii)))
(=> $x1 (= (- ii (t nn ii)) cc))))
)
)
(check-sat)
