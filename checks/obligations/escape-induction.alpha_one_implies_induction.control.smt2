; posreal proof obligation (SMT-LIB 2.6)
; claim:      escape-induction — E3 (the induction circuit: α^ind from layer 1's offset:1 routes)
; check:      escape-induction.alpha_one_implies_induction
; statement:  α_L(Φ, offset:1) = 1 implies every induction row is realized by the circuit, at every length n = 2m + 1
; obligation: control (weaken α = 1 to offset:1 realized on row t only): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun m () Int)
(declare-fun n () Int)
(declare-fun i () Int)
(declare-fun route (Int) Int)
(declare-fun j () Int)
(assert
 (>= m 2))
(assert
 (= n (+ (* 2 m) 1)))
(assert
 (<= (+ m 1) i))
(assert
 (<= i (- (* 2 m) 1)))
(assert
 (= (route 0) 0))
(assert
 (forall ((k Int) )(=> (and (>= k 0) (< k n)) (and (>= (route k) 0) (<= (route k) k))))
 )
(assert
 (let ((?x1 (- i m)))
 (let ((?x2 (+ ?x1 1)))
 (let ((?x3 (route ?x2)))
 (= ?x3 ?x1)))))
(assert
 (let (($x4 (>= j 0)))
 (let (($x5 (and $x4 (<= j i) (and (distinct j (+ (- i m) 1)) true) (= (route j) (- i m)))))
 (let (($x6 (= (route i) i)))
 (or (and (distinct (route (+ (- i m) 1)) (- i m)) true) $x6 $x5)))))
(assert
 (<= n 25))
(check-sat)
