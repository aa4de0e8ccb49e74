; posreal proof obligation (SMT-LIB 2.6)
; claim:      proposition4 — Proposition 4 (absolute/relative duality)
; check:      proposition4.margins
; statement:  margins are preserved: γ_i(Sκ; Sτ) = γ_i(κ; τ) for every kernel, row and target
; obligation: control (shear the kernel but not the task (target t instead of i - t)): negative control, the encoding with one hypothesis dropped or weakened
; expected:   sat — without that hypothesis the statement fails (the model is re-checked in Python)
; decide:     z3 -t:20000 FILE   or   cvc5 --mbqi --mbqi-enum --tlimit-per=3000 FILE
(set-info :status sat)
(set-logic ALL)
(declare-fun i () Int)
(declare-fun t () Int)
(declare-fun kappa (Int Int) Real)
(declare-fun m1 () Real)
(declare-fun m2 () Real)
(assert
 (>= i 1))
(assert
 (let (($x1 (>= t 0)))
 (and $x1 (<= t i))))
(assert
 (let (($x2 (exists ((k Int) )(let (($x3 (and (distinct k t) true)))
 (let (($x4 (>= k 0)))
 (let (($x5 (and $x4 (<= k i))))
 (and $x5 $x3 (= m1 (- (kappa i t) (kappa i k))))))))
 ))
 (let (($x6 (forall ((j Int) )(let (($x3 (and (distinct j t) true)))
 (let (($x4 (>= j 0)))
 (let (($x5 (and $x4 (<= j i))))
 (let (($x7 (and $x5 $x3)))
 (=> $x7 (<= m1 (- (kappa i t) (kappa i j)))))))))
 ))
 (and $x6 $x2))))
(assert
 (let (($x8 (exists ((k Int) )(let (($x3 (and (distinct k t) true)))
 (let (($x4 (>= k 0)))
 (let (($x5 (and $x4 (<= k i))))
 (and $x5 $x3 (= m2 (- (kappa i (- i t)) (kappa i (- i k)))))))))
 ))
 (let (($x9 (forall ((j Int) )(let (($x3 (and (distinct j t) true)))
 (let (($x4 (>= j 0)))
 (let (($x5 (and $x4 (<= j i))))
 (let (($x7 (and $x5 $x3)))
 (=> $x7 (<= m2 (- (kappa i (- i t)) (kappa i (- i j))))))))))
 ))
 (and $x9 $x8))))
(assert
 (and (distinct m1 m2) true))
(assert
 (<= i 12))
(check-sat)
