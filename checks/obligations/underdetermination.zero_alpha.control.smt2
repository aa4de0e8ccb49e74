; posreal proof obligation (SMT-LIB 2.6)
; claim:      underdetermination — Underdetermination (learned absolute PE)
; check:      underdetermination.zero_alpha
; statement:  (a') completion E_j = 0, targets independent of n, realized at L0: row i < L is realized iff i < L0, so α_L = |R_L ∩ [0, L0)| / |R_L|
; obligation: control (drop realization at L0): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-sort Vec 0)
(declare-fun L0 () Int)
(declare-fun L () Int)
(declare-fun B (Vec Vec) Real)
(declare-fun zero () Vec)
(declare-fun tgt (Int) Int)
(declare-fun i () Int)
(declare-fun scored (Int) Bool)
(declare-fun E (Int) Vec)
(assert
 (>= L0 1))
(assert
 (> L L0))
(assert
 (forall ((v Vec) )(= (B zero v) 0.0))
 )
(assert
 (let ((?x1 (tgt i)))
 (>= ?x1 0)))
(assert
 (let ((?x1 (tgt i)))
 (<= ?x1 i)))
(assert
 (let (($x2 (>= i 0)))
 (and $x2 (< i L))))
(assert
 (scored i))
(assert
 (let (($x3 (< i L0)))
 (let (($x4 (forall ((j Int) )(let ((?x5 (E i)))
 (let (($x3 (< i L0)))
 (let ((?x6 (ite $x3 ?x5 zero)))
 (let (($x7 (> (B ?x6 (ite (< (tgt i) L0) (E (tgt i)) zero)) (B ?x6 (ite (< j L0) (E j) zero)))))
 (=> (and (>= j 0) (<= j i) (and (distinct j (tgt i)) true)) $x7))))))
 ))
 (and (distinct $x4 $x3) true))))
(assert
 (<= L0 12))
(check-sat)
