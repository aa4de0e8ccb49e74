(* Theorem 1 (sufficiency), finite and limit forms, for every number of keys m and width p.

   Formalizes, from docs/definitions.md:
   - #linear-pe: a feature vector of width p is a function nat -> R read on 0..p-1; [dot p a b]
     is the inner product, [norm p a] its Euclidean norm; the kernel of parameters th on key j is
     [dot p th (psi j)] and the head's attention on key t of a row with m keys (j = 0..m-1) is
     [att kap m t] = exp (kap t) / sum of exp (kap j).
   - #realization-and-margin: [is_margin p u psi m t g] says g is the margin of the row under the
     direction u: kap t - kap j >= g for every other key, with equality at one of them.
   - #theorem-1: the finite form with th = rho (u + e), norm e <= eps, every feature of the row
     of norm <= B; the limit form with norm (th k) unbounded and th k / norm (th k) converging to
     u in norm.

   Main results:
   - cauchy_schwarz: |dot p a b| <= norm p a * norm p b;
   - theorem1_finite_pos: margin g > 0 gives attention >= 1 / (1 + (m - 1) exp (-rho (g - 2 eps B)));
   - theorem1_finite_neg: margin g < 0 gives attention <= exp (-rho (|g| - 2 eps B));
   - theorem1_limit_pos / theorem1_limit_neg: the attention on the target tends to 1 / to 0;
   - alpha_one_generalizes: when every scored row has a positive margin, every row's attention
     on its target tends to 1.

   Negative controls: control_direction_error (norm e <= eps dropped: the finite bound fails),
   control_bounded_scale (an unbounded scale dropped: the attention does not tend to 1). *)

Require Import Reals Lra Lia.
Open Scope R_scope.

Fixpoint sum (f : nat -> R) (p : nat) : R :=
  match p with O => 0 | S q => sum f q + f q end.

Definition dot (p : nat) (a b : nat -> R) : R := sum (fun k => a k * b k) p.
Definition norm (p : nat) (a : nat -> R) : R := sqrt (dot p a a).

Definition att (kap : nat -> R) (m t : nat) : R := exp (kap t) / sum (fun j => exp (kap j)) m.

Definition is_margin p (u : nat -> R) (psi : nat -> nat -> R) (m t : nat) (g : R) : Prop :=
  (forall j, (j < m)%nat -> j <> t -> dot p u (psi t) - dot p u (psi j) >= g) /\
  (exists j, (j < m)%nat /\ j <> t /\ dot p u (psi t) - dot p u (psi j) = g).

(* ---- finite sums *)
Lemma sum_ext : forall f g p, (forall k, (k < p)%nat -> f k = g k) -> sum f p = sum g p.
Proof.
  intros f g p H; induction p as [|q IH]; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H q) by lia. reflexivity.
Qed.

Lemma sum_nonneg : forall f p, (forall k, (k < p)%nat -> 0 <= f k) -> 0 <= sum f p.
Proof.
  intros f p H; induction p as [|q IH]; simpl; [lra|].
  assert (0 <= f q) by (apply H; lia). assert (0 <= sum f q) by (apply IH; intros; apply H; lia). lra.
Qed.

Lemma sum_ge_term : forall f p j, (forall k, (k < p)%nat -> 0 <= f k) -> (j < p)%nat -> f j <= sum f p.
Proof.
  intros f p j H Hj; induction p as [|q IH]; [lia|]. simpl.
  assert (0 <= sum f q) by (apply sum_nonneg; intros; apply H; lia).
  destruct (Nat.eq_dec j q) as [->|E]; [lra|].
  assert (f j <= sum f q) by (apply IH; [intros; apply H; lia | lia]).
  assert (0 <= f q) by (apply H; lia). lra.
Qed.

Lemma sum_le_const : forall f p c, (forall k, (k < p)%nat -> f k <= c) -> sum f p <= INR p * c.
Proof.
  intros f p c H; induction p as [|q IH]; simpl sum; [simpl; lra|].
  rewrite S_INR. assert (f q <= c) by (apply H; lia).
  assert (sum f q <= INR q * c) by (apply IH; intros; apply H; lia). lra.
Qed.

Lemma sum_split_le : forall f p t c, (t < p)%nat ->
  (forall k, (k < p)%nat -> k <> t -> f k <= c) -> sum f p <= f t + INR (p - 1) * c.
Proof.
  intros f p t c Ht H; induction p as [|q IH]; [lia|]. simpl sum.
  replace (S q - 1)%nat with q by lia.
  destruct (Nat.eq_dec t q) as [->|E].
  - assert (sum f q <= INR q * c) by (apply sum_le_const; intros; apply H; lia). lra.
  - assert (f q <= c) by (apply H; lia).
    assert (sum f q <= f t + INR (q - 1) * c) by (apply IH; [lia | intros; apply H; lia]).
    destruct q as [|q']; [lia|]. replace (S q' - 1)%nat with q' in * by lia. rewrite S_INR. lra.
Qed.

(* ---- inner products *)
Lemma dot_nonneg : forall p a, 0 <= dot p a a.
Proof.
  intros p a; unfold dot; apply sum_nonneg; intros k _.
  pose proof (Rle_0_sqr (a k)); unfold Rsqr in *; lra.
Qed.

Lemma dot_quad : forall p x a b,
  dot p (fun k => x * a k + b k) (fun k => x * a k + b k) = x * x * dot p a a + 2 * x * dot p a b + dot p b b.
Proof. intros p x a b; unfold dot; induction p as [|q IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma dot_comb : forall p c a e b,
  dot p (fun k => c * (a k + e k)) b = c * (dot p a b + dot p e b).
Proof. intros p c a e b; unfold dot; induction p as [|q IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Lemma dot_sym : forall p a b, dot p a b = dot p b a.
Proof. intros p a b; unfold dot; apply sum_ext; intros; ring. Qed.

Lemma cs_square : forall p a b, dot p a b * dot p a b <= dot p a a * dot p b b.
Proof.
  intros p a b. set (A := dot p a a); set (B := dot p b b); set (C := dot p a b).
  assert (Q : forall x, 0 <= x * x * A + 2 * x * C + B).
  { intro x. unfold A, B, C. rewrite <- (dot_quad p x a b). apply dot_nonneg. }
  assert (HA : 0 <= A) by apply dot_nonneg.
  destruct (Req_dec A 0) as [A0|A0].
  - destruct (Req_dec C 0) as [C0|C0].
    + rewrite C0, A0. lra.
    + exfalso. specialize (Q (- (B + 1) / (2 * C))). rewrite A0 in Q.
      replace (2 * (- (B + 1) / (2 * C)) * C) with (- (B + 1)) in Q by (field; exact C0). lra.
  - specialize (Q (- C / A)).
    replace (- C / A * (- C / A) * A + 2 * (- C / A) * C + B) with (B - C * C / A) in Q by (field; exact A0).
    assert (0 < A) by lra.
    assert (C * C / A <= B) by lra.
    apply (Rmult_le_compat_l A) in H0; [|lra].
    replace (A * (C * C / A)) with (C * C) in H0 by (field; exact A0). lra.
Qed.

Theorem cauchy_schwarz : forall p a b, Rabs (dot p a b) <= norm p a * norm p b.
Proof.
  intros p a b. unfold norm. rewrite <- sqrt_mult_alt by apply dot_nonneg.
  rewrite <- sqrt_Rsqr_abs. apply sqrt_le_1_alt. unfold Rsqr. apply cs_square.
Qed.

Lemma Rabs_le_between : forall x a, Rabs x <= a -> - a <= x <= a.
Proof.
  intros x a H. pose proof (Rle_abs x). pose proof (Rle_abs (- x)). rewrite Rabs_Ropp in *. lra.
Qed.

Lemma exp_le_exp : forall x y, x <= y -> exp x <= exp y.
Proof.
  intros x y H. destruct (Rle_lt_or_eq_dec x y H) as [L|E]; [left; apply exp_increasing, L | rewrite E; lra].
Qed.

Lemma norm_nonneg : forall p a, 0 <= norm p a.
Proof. intros; apply sqrt_pos. Qed.

Lemma error_bound : forall p e b eps B, norm p e <= eps -> norm p b <= B -> Rabs (dot p e b) <= eps * B.
Proof.
  intros p e b eps B He Hb. eapply Rle_trans; [apply cauchy_schwarz|].
  pose proof (norm_nonneg p e); pose proof (norm_nonneg p b).
  apply Rmult_le_compat; lra.
Qed.

(* ---- the finite form *)
Section Finite.
Variables (p m t : nat) (psi : nat -> nat -> R) (u e : nat -> R) (rho eps B : R).
Hypothesis Ht : (t < m)%nat.
Hypothesis Hrho : 0 < rho.
Hypothesis He : norm p e <= eps.
Hypothesis HB : forall j, (j < m)%nat -> norm p (psi j) <= B.

Let kap j := dot p (fun k => rho * (u k + e k)) (psi j).

Lemma kap_gap : forall j, (j < m)%nat ->
  kap t - kap j >= rho * (dot p u (psi t) - dot p u (psi j) - 2 * eps * B).
Proof.
  intros j Hj. unfold kap. rewrite !dot_comb.
  pose proof (error_bound p e (psi t) eps B He (HB t Ht)).
  pose proof (error_bound p e (psi j) eps B He (HB j Hj)).
  apply Rabs_le_between in H; apply Rabs_le_between in H0.
  apply Rle_ge. rewrite <- Rmult_minus_distr_l. apply Rmult_le_compat_l; lra.
Qed.

Lemma sum_exp_pos : 0 < sum (fun j => exp (kap j)) m.
Proof.
  eapply Rlt_le_trans; [apply (exp_pos (kap t))|].
  apply (sum_ge_term (fun j => exp (kap j))); [intros; left; apply exp_pos | exact Ht].
Qed.

Theorem finite_pos_ge : forall g,
  (forall j, (j < m)%nat -> j <> t -> dot p u (psi t) - dot p u (psi j) >= g) ->
  att kap m t >= 1 / (1 + INR (m - 1) * exp (- (rho * (g - 2 * eps * B)))).
Proof.
  intros g Hg. set (X := exp (- (rho * (g - 2 * eps * B)))).
  set (S := sum (fun j => exp (kap j)) m). set (et := exp (kap t)).
  assert (HX : 0 < X) by apply exp_pos. assert (Het : 0 < et) by apply exp_pos.
  assert (HS : 0 < S) by apply sum_exp_pos.
  assert (Hterm : forall j, (j < m)%nat -> j <> t -> exp (kap j) <= et * X).
  { intros j Hj Hjt. unfold et, X. rewrite <- exp_plus. apply exp_le_exp.
    pose proof (kap_gap j Hj). pose proof (Hg j Hj Hjt).
    assert (rho * (dot p u (psi t) - dot p u (psi j) - 2 * eps * B) >= rho * (g - 2 * eps * B)).
    { apply Rle_ge, Rmult_le_compat_l; lra. }
    lra. }
  assert (HSle : S <= et + INR (m - 1) * (et * X))
    by (unfold S, et; apply (sum_split_le (fun j => exp (kap j))); assumption).
  assert (Hm : 0 <= INR (m - 1)) by apply pos_INR.
  assert (HQ : 0 < 1 + INR (m - 1) * X) by nra.
  unfold att. fold S et. apply Rle_ge.
  replace (et / S) with (/ (S / et)) by (field; split; lra).
  replace (1 / (1 + INR (m - 1) * X)) with (/ (1 + INR (m - 1) * X)) by (field; lra).
  apply Rinv_le_contravar; [apply Rdiv_lt_0_compat; lra|].
  apply (Rmult_le_reg_r et); [lra|]. replace (S / et * et) with S by (field; lra). lra.
Qed.

Theorem finite_neg_le : forall g j0, (j0 < m)%nat -> j0 <> t ->
  dot p u (psi t) - dot p u (psi j0) <= g -> g < 0 ->
  att kap m t <= exp (- (rho * (Rabs g - 2 * eps * B))).
Proof.
  intros g j0 Hj0 Hj0t Hg Hneg. rewrite Rabs_left by exact Hneg.
  set (S := sum (fun j => exp (kap j)) m). set (et := exp (kap t)).
  assert (HS : exp (kap j0) <= S)
    by (apply (sum_ge_term (fun j => exp (kap j))); [intros; left; apply exp_pos | exact Hj0]).
  assert (Hj : 0 < exp (kap j0)) by apply exp_pos. assert (Het : 0 < et) by apply exp_pos.
  (* the gap of j0 over t under rho (u + e) *)
  assert (Hgap : kap j0 - kap t >= rho * (- g - 2 * eps * B)).
  { unfold kap. rewrite !dot_comb.
    pose proof (error_bound p e (psi t) eps B He (HB t Ht)).
    pose proof (error_bound p e (psi j0) eps B He (HB j0 Hj0)).
    apply Rabs_le_between in H; apply Rabs_le_between in H0.
    apply Rle_ge. rewrite <- Rmult_minus_distr_l. apply Rmult_le_compat_l; lra. }
  unfold att. fold S et.
  apply (Rle_trans _ (et / exp (kap j0))).
  - unfold Rdiv. apply Rmult_le_compat_l; [lra|]. apply Rinv_le_contravar; lra.
  - unfold et. unfold Rdiv. rewrite <- exp_Ropp, <- exp_plus. apply exp_le_exp. lra.
Qed.

Lemma att_le_1 : att kap m t <= 1.
Proof.
  unfold att. pose proof sum_exp_pos.
  assert (exp (kap t) <= sum (fun j => exp (kap j)) m)
    by (apply (sum_ge_term (fun j => exp (kap j))); [intros; left; apply exp_pos | exact Ht]).
  apply (Rmult_le_reg_r (sum (fun j => exp (kap j)) m)); [lra|].
  unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra.
Qed.

Lemma att_pos : 0 < att kap m t.
Proof. unfold att. apply Rdiv_lt_0_compat; [apply exp_pos | apply sum_exp_pos]. Qed.

End Finite.

Theorem theorem1_finite_pos : forall p m t psi u e rho eps B g,
  (t < m)%nat -> 0 < rho -> norm p e <= eps -> (forall j, (j < m)%nat -> norm p (psi j) <= B) ->
  is_margin p u psi m t g -> 0 < g ->
  att (fun j => dot p (fun k => rho * (u k + e k)) (psi j)) m t
    >= 1 / (1 + INR (m - 1) * exp (- (rho * (g - 2 * eps * B)))).
Proof. intros p m t psi u e rho eps B g Ht Hr He HB [Hg _] _. apply finite_pos_ge; assumption. Qed.

Theorem theorem1_finite_neg : forall p m t psi u e rho eps B g,
  (t < m)%nat -> 0 < rho -> norm p e <= eps -> (forall j, (j < m)%nat -> norm p (psi j) <= B) ->
  is_margin p u psi m t g -> g < 0 ->
  att (fun j => dot p (fun k => rho * (u k + e k)) (psi j)) m t
    <= exp (- (rho * (Rabs g - 2 * eps * B))).
Proof.
  intros p m t psi u e rho eps B g Ht Hr He HB [_ [j0 [Hj0 [Hj0t Hg]]]] Hneg.
  apply (finite_neg_le p m t psi u e rho eps B Ht Hr He HB g j0); first [assumption | lra].
Qed.

(* ---- the limit form *)
Lemma att_ext : forall kap1 kap2 m t, (t < m)%nat -> (forall j, (j < m)%nat -> kap1 j = kap2 j) ->
  att kap1 m t = att kap2 m t.
Proof.
  intros kap1 kap2 m t Ht H. unfold att. rewrite (H t Ht).
  rewrite (sum_ext (fun j => exp (kap1 j)) (fun j => exp (kap2 j))); [reflexivity|].
  intros k Hk. rewrite (H k Hk). reflexivity.
Qed.

Lemma exp_neg_le_inv : forall x, 0 < x -> exp (- x) <= / x.
Proof.
  intros x Hx. pose proof (exp_ineq1 x ltac:(lra)). pose proof (exp_pos x).
  rewrite exp_Ropp. apply Rinv_le_contravar; lra.
Qed.

(* th k = rho_k (u + e_k) with rho_k = norm (th k) and e_k = th k / rho_k - u *)
Lemma decompose : forall p (th u : nat -> R) (psi : nat -> nat -> R) m t, 0 < norm p th -> (t < m)%nat ->
  att (fun j => dot p th (psi j)) m t =
  att (fun j => dot p (fun c => norm p th * (u c + (th c / norm p th - u c))) (psi j)) m t.
Proof.
  intros p th u psi m t Hn Ht. apply att_ext; [exact Ht|]. intros j _.
  unfold dot. apply sum_ext. intros k _. field. lra.
Qed.

Theorem theorem1_limit_pos : forall p m t psi u (th : nat -> nat -> R) B g,
  (t < m)%nat -> (forall j, (j < m)%nat -> norm p (psi j) <= B) ->
  is_margin p u psi m t g -> 0 < g ->
  cv_infty (fun k => norm p (th k)) ->
  Un_cv (fun k => norm p (fun c => th k c / norm p (th k) - u c)) 0 ->
  Un_cv (fun k => att (fun j => dot p (th k) (psi j)) m t) 1.
Proof.
  intros p m t psi u th B g Ht HB [Hg _] Hpos Hinf Hdir eps Heps.
  assert (HB0 : 0 <= B) by (eapply Rle_trans; [apply norm_nonneg | apply (HB t Ht)]).
  destruct (Hdir (g / (4 * (B + 1)))) as [K1 HK1].
  { apply Rlt_gt, Rdiv_lt_0_compat; lra. }
  destruct (Hinf (2 * INR m / (g * eps))) as [K2 HK2].
  exists (Nat.max K1 K2). intros k Hk.
  set (rho := norm p (th k)). set (e := fun c => th k c / rho - u c). set (ek := norm p e).
  assert (Hm0 : 0 <= INR m) by apply pos_INR.
  assert (HM : 0 <= 2 * INR m / (g * eps)).
  { unfold Rdiv. apply Rmult_le_pos; [lra|]. left. apply Rinv_0_lt_compat. nra. }
  assert (Hrho : 2 * INR m / (g * eps) < rho) by (apply HK2; lia).
  assert (Hek : ek < g / (4 * (B + 1))).
  { specialize (HK1 k ltac:(lia)). unfold R_dist in HK1. rewrite Rminus_0_r in HK1.
    pose proof (Rle_abs ek) as Hab. unfold ek, e, rho in Hab |- *. lra. }
  assert (Hek0 : 0 <= ek) by apply norm_nonneg.
  assert (H2eB : 2 * ek * B <= g / 2).
  { assert (ek * (4 * (B + 1)) < g).
    { apply (Rmult_lt_compat_r (4 * (B + 1))) in Hek; [|lra].
      replace (g / (4 * (B + 1)) * (4 * (B + 1))) with g in Hek by (field; lra). exact Hek. }
    nra. }
  rewrite (decompose p (th k) u psi m t) by first [exact Ht | fold rho; lra].
  change (R_dist (att (fun j => dot p (fun c => rho * (u c + e c)) (psi j)) m t) 1 < eps).
  pose proof (finite_pos_ge p m t psi u e rho ek B Ht ltac:(lra) ltac:(unfold ek; lra) HB g Hg) as Hlow.
  pose proof (att_le_1 p m t psi u e rho Ht) as Hup.
  set (a := att (fun j => dot p (fun c => rho * (u c + e c)) (psi j)) m t) in *.
  set (X := exp (- (rho * (g - 2 * ek * B)))) in *.
  set (x := rho * g / 2).
  assert (Hx : 0 < x) by (unfold x; nra).
  assert (HX : X <= / x).
  { eapply Rle_trans; [|apply (exp_neg_le_inv x Hx)]. apply exp_le_exp. unfold x. nra. }
  assert (HX0 : 0 < X) by apply exp_pos.
  assert (Hm1 : 0 <= INR (m - 1)) by apply pos_INR.
  assert (Hmm : INR (m - 1) <= INR m) by (apply le_INR; lia).
  assert (Hex : INR m < eps * x).
  { unfold x. apply (Rmult_lt_compat_l (g * eps / 2)) in Hrho; [|nra].
    replace (g * eps / 2 * (2 * INR m / (g * eps))) with (INR m) in Hrho by (field; lra). nra. }
  assert (Htail : INR (m - 1) * X < eps).
  { apply (Rle_lt_trans _ (INR (m - 1) * / x)); [apply Rmult_le_compat_l; lra|].
    apply (Rmult_lt_reg_r x); [exact Hx|]. rewrite Rmult_assoc, Rinv_l by lra. nra. }
  unfold R_dist. rewrite Rabs_left1 by lra.
  assert (1 - a <= INR (m - 1) * X).
  { assert (Q : 0 < 1 + INR (m - 1) * X) by nra.
    assert (1 / (1 + INR (m - 1) * X) >= 1 - INR (m - 1) * X).
    { apply Rle_ge. apply (Rmult_le_reg_r (1 + INR (m - 1) * X)); [exact Q|].
      replace (1 / (1 + INR (m - 1) * X) * (1 + INR (m - 1) * X)) with 1 by (field; lra). nra. }
    lra. }
  lra.
Qed.

Theorem theorem1_limit_neg : forall p m t psi u (th : nat -> nat -> R) B g,
  (t < m)%nat -> (forall j, (j < m)%nat -> norm p (psi j) <= B) ->
  is_margin p u psi m t g -> g < 0 ->
  cv_infty (fun k => norm p (th k)) ->
  Un_cv (fun k => norm p (fun c => th k c / norm p (th k) - u c)) 0 ->
  Un_cv (fun k => att (fun j => dot p (th k) (psi j)) m t) 0.
Proof.
  intros p m t psi u th B g Ht HB [_ [j0 [Hj0 [Hj0t Hg]]]] Hneg Hinf Hdir eps Heps.
  assert (HB0 : 0 <= B) by (eapply Rle_trans; [apply norm_nonneg | apply (HB t Ht)]).
  destruct (Hdir (- g / (4 * (B + 1)))) as [K1 HK1].
  { apply Rlt_gt, Rdiv_lt_0_compat; lra. }
  destruct (Hinf (2 / (- g * eps))) as [K2 HK2].
  exists (Nat.max K1 K2). intros k Hk.
  set (rho := norm p (th k)). set (e := fun c => th k c / rho - u c). set (ek := norm p e).
  assert (HM : 0 <= 2 / (- g * eps)).
  { unfold Rdiv. apply Rmult_le_pos; [lra|]. left. apply Rinv_0_lt_compat. nra. }
  assert (Hrho : 2 / (- g * eps) < rho) by (apply HK2; lia).
  assert (Hek : ek < - g / (4 * (B + 1))).
  { specialize (HK1 k ltac:(lia)). unfold R_dist in HK1. rewrite Rminus_0_r in HK1.
    pose proof (Rle_abs ek) as Hab. unfold ek, e, rho in Hab |- *. lra. }
  assert (Hek0 : 0 <= ek) by apply norm_nonneg.
  assert (H2eB : 2 * ek * B <= - g / 2).
  { assert (ek * (4 * (B + 1)) < - g).
    { apply (Rmult_lt_compat_r (4 * (B + 1))) in Hek; [|lra].
      replace (- g / (4 * (B + 1)) * (4 * (B + 1))) with (- g) in Hek by (field; lra). exact Hek. }
    nra. }
  rewrite (decompose p (th k) u psi m t) by first [exact Ht | fold rho; lra].
  change (R_dist (att (fun j => dot p (fun c => rho * (u c + e c)) (psi j)) m t) 0 < eps).
  pose proof (finite_neg_le p m t psi u e rho ek B Ht ltac:(lra) ltac:(unfold ek; lra) HB g j0 Hj0 Hj0t
                ltac:(lra) Hneg) as Hup.
  pose proof (att_pos p m t psi u e rho Ht) as Hlow.
  rewrite Rabs_left in Hup by exact Hneg.
  set (a := att (fun j => dot p (fun c => rho * (u c + e c)) (psi j)) m t) in *.
  set (x := rho * - g / 2).
  assert (Hx : 0 < x) by (unfold x; nra).
  assert (Ha : a <= / x).
  { eapply Rle_trans; [exact Hup|]. eapply Rle_trans; [|apply (exp_neg_le_inv x Hx)].
    apply exp_le_exp. unfold x. nra. }
  assert (Hex : 1 < eps * x).
  { unfold x. apply (Rmult_lt_compat_l (- g * eps / 2)) in Hrho; [|nra].
    replace (- g * eps / 2 * (2 / (- g * eps))) with 1 in Hrho by (field; lra). nra. }
  unfold R_dist. rewrite Rminus_0_r, Rabs_right by lra.
  apply (Rle_lt_trans _ (/ x)); [exact Ha|].
  apply (Rmult_lt_reg_r x); [exact Hx|]. rewrite Rinv_l by lra. nra.
Qed.

(* alpha_L = 1: every scored row has a positive margin under u, so every row's attention on its
   target tends to 1 (rows: any predicate; keys, targets and features per row). *)
Theorem alpha_one_generalizes : forall p (rows : nat -> Prop) (keys tgt : nat -> nat)
  (psi : nat -> nat -> nat -> R) (bound : nat -> R) (gam : nat -> R) u (th : nat -> nat -> R),
  (forall i, rows i -> (tgt i < keys i)%nat) ->
  (forall i j, rows i -> (j < keys i)%nat -> norm p (psi i j) <= bound i) ->
  (forall i, rows i -> is_margin p u (psi i) (keys i) (tgt i) (gam i) /\ 0 < gam i) ->
  cv_infty (fun k => norm p (th k)) ->
  Un_cv (fun k => norm p (fun c => th k c / norm p (th k) - u c)) 0 ->
  forall i, rows i -> Un_cv (fun k => att (fun j => dot p (th k) (psi i j)) (keys i) (tgt i)) 1.
Proof.
  intros p rows keys tgt psi bound gam u th Ht HB Hm Hinf Hdir i Hi.
  destruct (Hm i Hi) as [Hmi Hg].
  apply (theorem1_limit_pos p (keys i) (tgt i) (psi i) u th (bound i) (gam i)); auto.
Qed.

(* ---- negative controls *)
(* m = 2 keys, p = 1, features 1 and 0, target 0, u = 1 (margin 1), B = 1, eps = 0, rho = 1, and a
   direction error e = -2 whose norm exceeds eps: the finite bound fails. *)
Definition psi_c (j k : nat) : R := if Nat.eqb j 0 then 1 else 0.

Theorem control_direction_error :
  is_margin 1 (fun _ => 1) psi_c 2 0 1 /\ ~ norm 1 (fun _ => -2) <= 0 /\
  att (fun j => dot 1 (fun k => 1 * ((fun _ => 1) k + (fun _ => -2) k)) (psi_c j)) 2 0
    < 1 / (1 + INR (2 - 1) * exp (- (1 * (1 - 2 * 0 * 1)))).
Proof.
  unfold is_margin, dot, psi_c, att, norm; simpl. split; [|split].
  - split.
    + intros j Hj Hj0. destruct j as [|[|j]]; [lia| simpl; lra | lia].
    + exists 1%nat. repeat split; [lia | lia | simpl; lra].
  - unfold dot; simpl. replace (0 + -2 * -2) with (2 * 2) by ring. rewrite sqrt_square by lra. lra.
  - unfold dot; simpl.
    replace (0 + 1 * (1 + -2) * 1) with (- 1) by ring. replace (0 + 1 * (1 + -2) * 0) with 0 by ring.
    replace (- (1 * (1 - 2 * 0 * 1))) with (- 1) by ring. rewrite exp_0.
    assert (E : exp (-1) < 1) by (rewrite <- exp_0; apply exp_increasing; lra).
    pose proof (exp_pos (-1)).
    apply (Rmult_lt_reg_r ((0 + exp (-1) + 1) * (1 + 1 * exp (-1)))); [nra|].
    field_simplify; [nra | lra | lra].
Qed.

(* The unbounded scale dropped: th k = u for every k (direction exact, scale fixed): the attention
   on the target stays at e / (e + 1) and does not tend to 1. *)
Theorem control_bounded_scale :
  is_margin 1 (fun _ => 1) psi_c 2 0 1 /\
  ~ Un_cv (fun k => att (fun j => dot 1 (fun _ => 1) (psi_c j)) 2 0) 1.
Proof.
  split.
  - unfold is_margin, dot, psi_c; simpl. split.
    + intros j Hj Hj0. destruct j as [|[|j]]; [lia| simpl; lra | lia].
    + exists 1%nat. repeat split; [lia | lia | simpl; lra].
  - intros H. unfold att, dot, psi_c in H; simpl in H.
    set (a := exp (0 + 1 * 1) / (0 + exp (0 + 1 * 1) + exp (0 + 1 * 0))) in H.
    assert (Ha : a < 1).
    { unfold a. replace (0 + 1 * 0) with 0 by ring. rewrite exp_0. pose proof (exp_pos (0 + 1 * 1)).
      apply (Rmult_lt_reg_r (0 + exp (0 + 1 * 1) + 1)); [lra|]. field_simplify; lra. }
    destruct (H (1 - a) ltac:(lra)) as [K HK]. specialize (HK K ltac:(lia)).
    unfold R_dist in HK. rewrite Rabs_left in HK by lra. lra.
Qed.
