; posreal proof obligation (SMT-LIB 2.6)
; claim:      expressivity — Expressivity bound (static routing and class ceiling)
; check:      expressivity.token_independence
; statement:  (a) static routing: a positional-only head's attention depends on n alone, never on the tokens
; obligation: control (allow a content term (c ≠ 0)): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun n () Int)
(declare-fun i () Int)
(declare-fun j () Int)
(declare-fun j2 () Int)
(declare-fun c () Real)
(declare-fun T (Int Int) Real)
(declare-fun y () (Array Int Int))
(declare-fun kappa (Int Int Int) Real)
(declare-fun x () (Array Int Int))
(assert
 (>= n 1))
(assert
 (let (($x1 (>= i 0)))
 (and $x1 (< i n))))
(assert
 (>= j 0))
(assert
 (<= j i))
(assert
 (>= j2 0))
(assert
 (<= j2 i))
(assert
 (and (distinct c 0.0) true))
(assert
 (let ((?x2 (* c (T (select y i) (select y j2)))))
 (let ((?x3 (kappa n i j2)))
 (let ((?x4 (+ ?x3 ?x2)))
 (let ((?x5 (* c (T (select y i) (select y j)))))
 (let ((?x6 (kappa n i j)))
 (let ((?x7 (+ ?x6 ?x5)))
 (let ((?x8 (* c (T (select x i) (select x j2)))))
 (let ((?x9 (+ ?x3 ?x8)))
 (let ((?x10 (* c (T (select x i) (select x j)))))
 (let ((?x11 (+ ?x6 ?x10)))
 (and (distinct (- ?x11 ?x9) (- ?x7 ?x4)) true))))))))))))
(assert
 (<= n 12))
(check-sat)
