; posreal proof obligation (SMT-LIB 2.6)
; claim:      escape-depth — E1 (depth alone does not escape: the route lemma and β^(K))
; check:      escape-depth.route_lemma_step
; statement:  route lemma, induction step: a token-independent route keeps the stream a function of x on S_K(i) ∪ S_K(route(i)) ⊆ {0..i}
; obligation: control (let the route depend on the tokens (r' ≠ r)): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun n () Int)
(declare-fun i () Int)
(declare-fun r () Int)
(declare-fun ry () Int)
(declare-fun mem (Int Int) Bool)
(declare-fun F (Int Int) Int)
(declare-fun y () (Array Int Int))
(declare-fun x () (Array Int Int))
(declare-fun q () Int)
(assert
 (>= n 1))
(assert
 (let (($x1 (>= i 0)))
 (and $x1 (< i n))))
(assert
 (>= r 0))
(assert
 (<= r i))
(assert
 (>= ry 0))
(assert
 (<= ry i))
(assert
 (forall ((j Int) (q Int) )(=> (and (and (>= j 0) (< j n)) (mem j q)) (and (>= q 0) (<= q j))))
 )
(assert
 (forall ((j Int) )(let (($x2 (= (F 0 j) (F 1 j))))
 (let (($x3 (forall ((p Int) )(let (($x4 (= (select x p) (select y p))))
 (=> (and (and (>= p 0) (< p n)) (mem j p)) $x4)))
 ))
 (let (($x5 (>= j 0)))
 (let (($x6 (and $x5 (< j n))))
 (=> (and $x6 $x3) $x2))))))
 )
(assert
 (forall ((p Int) )(let (($x4 (= (select x p) (select y p))))
 (let (($x7 (or (mem i p) (mem r p))))
 (let (($x5 (>= p 0)))
 (let (($x6 (and $x5 (< p n))))
 (=> (and $x6 $x7) $x4))))))
 )
(assert
 (and (distinct ry r) true))
(assert
 (let (($x8 (or (mem i q) (mem r q))))
 (or (and (distinct (F 0 i) (F 1 i)) true) (and (distinct (F 0 r) (F 1 ry)) true) (and $x8 (or (< q 0) (> q i))))))
(assert
 (<= n 12))
(check-sat)
