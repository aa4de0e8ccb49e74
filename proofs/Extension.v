(* Length extension under position interpolation (claim id extension), parts (a) to (d), the
   split of (e) and what (f) keeps, for every length.

   Formalizes, from docs/definitions.md:
   - #length-extension: under PI at length L the key index k of the L-grid (k = i - j for rope,
     k = j for abscol) carries V (x k), x k = k L0 / L ([xk L0 L k]), for a continuous profile
     V : R -> R of the trained parameters (any function here: no property of V is assumed
     beyond the hypotheses of each result).
   - #realization-and-margin: [realized_pi V L0 L i kt] is "row i (key indices 0..i) is realized
     for the target key index kt": V (x kt) > V (x k) for every other key k <= i.
   - #positional-task: by target key index, copy (rope) and middle (abscol) target h = L / 2,
     offset:c (rope) and position:c (abscol) target c, position:0 (rope) targets i.

   Main results:
   - xk_range, pi_dense: (a) the keys lie in [0, L0), and every rational a L0 / b in [0, L0) is
     the key 2 a L0 of the last row at the even length 2 b L0;
   - pi_copy_even, pi_copy_even_necessary: (b) at every even L >= L0 every row of copy/middle is
     realized iff V (L0 / 2) > V (x) for every rational x in [0, L0) other than L0 / 2 (the
     sufficient direction for every real x);
   - pi_copy_odd: (b) at odd L each row i > L / 2 needs V (L0/2 - L0/2L) > V (L0/2 + L0/2L);
   - pi_offset_increasing, pi_offset_decreasing, pi_offset_derivative: (c) V strictly monotone
     on [0, (c+1) L0 / L]: no row i >= c + 1 is realized, and row c is realized iff V increases
     (the increasing case also from V' > 0, through the mean value theorem of the library);
   - pi_position0_iff: (d) position:0 (rope) is realized on every row of every L >= L0 iff V
     is strictly increasing on the rationals of [0, L0) (the sufficient direction on the reals);
   - pi_position_local_max: (d) for p >= 1 a realized row i > p has V at x (i - p) above both
     neighbouring keys;
   - ntk_split, yarn_split: (e) NTK extrapolates frequency 0 (factor 1), interpolates the last one
     (factor s) and lies strictly between for the others; YaRN's factor is 1 when r >= beta, s when
     r <= alpha and strictly between on the ramp (for s > 1);
   - keep_rows: (f) a row realized with margin g by the trained profile stays realized under a
     transfer that moves the value at key k by at most k D, when 2 i D < g;
   - pi_offset_threshold_pos, pi_offset_threshold_neg: (c) with V' = V1, V'' = V2 and |V''| <= M2
     on [0, (c+1) L0 / L], once L > L_c = (c+1) L0 M2 / |V'(0)| row c is realized iff V'(0) > 0
     and no row i >= c + 1 is (so alpha_L = [V'(0) > 0] / (L - c));
   - pi_offset0_iff: (c) target key index 0 is realized on every row of every L >= L0 iff
     V (0) > V (x) for every rational x in (0, L0);
   - pi_position_rows_bound, pi_position_alpha_bound: (d) for a continuous V and p >= 1, the
     realized rows i > p are at most as many as the local maxima of V in (0, L0) (their targets
     are pairwise at least 2 apart, so the intervals around them are disjoint), so at most
     1 + m rows of position:p are realized: alpha_L <= (1 + m) / (L - p), within the stated
     (1 + 2 m) / (L - p);
   - transfer_moves_key, keep_rows_sigma: (f) with V_f (x) = a_f cos (w_f x) + b_f sin (w_f x),
     w_f >= 0, lambda_f > 0, the transfer moves the value at key k by at most k Delta_sigma (s),
     Delta_sigma (s) = sum_f w_f sqrt (a_f^2 + b_f^2) |1 - 1 / lambda_f (s)|, so a row realized
     with margin g by the trained profile stays realized when 2 i Delta_sigma (s) < g;
   - split_extrapolated, split_interpolated: (e) with V^sigma (k) = sum_f V_f (k / lambda_f), a
     parameter with weight only on frequencies with lambda_f = 1 realizes the rows T_L realizes,
     one with weight only on frequencies with lambda_f = s = L / L0 the rows PI realizes.

   Negative controls: control_copy_odd (L odd: a symmetric peak ties), control_offset_peak
   (monotonicity dropped: a row beyond c + 1 is realized), control_position_integers (V
   increasing on the integers 0..L0-1 only: a row fails), control_ntk_identity (s = 1: no
   frequency strictly between), control_keep_bound (2 i D < g
   weakened to i D < g: a row is lost), control_offset_threshold (L > L_c weakened to L >= L0:
   a row i >= c + 1 is realized), control_offset0_integers (V (0) > V on the integer keys only:
   a row fails), control_split_mixed (a frequency strictly between: the kernel is neither),
   control_position_discontinuous (continuity dropped: no local maximum, a realized row),
   control_keep_sigma_frequency_sign (w_f >= 0 dropped: a row is lost). *)

Require Import Reals Lra Lia.
Open Scope R_scope.

Definition xk (L0 L k : nat) : R := INR k * INR L0 / INR L.

Definition realized_pi (V : R -> R) (L0 L i kt : nat) : Prop :=
  (kt <= i)%nat /\ forall k, (k <= i)%nat -> k <> kt -> V (xk L0 L k) < V (xk L0 L kt).

Lemma Rabs_le_between : forall x a, Rabs x <= a -> - a <= x <= a.
Proof.
  intros x a H. pose proof (Rle_abs x). pose proof (Rle_abs (- x)). rewrite Rabs_Ropp in *. lra.
Qed.

Lemma INR_pos : forall n, (1 <= n)%nat -> 0 < INR n.
Proof. intros n H. apply lt_0_INR. lia. Qed.

Theorem xk_range : forall L0 L k, (1 <= L0)%nat -> (L0 <= L)%nat -> (k < L)%nat -> 0 <= xk L0 L k < INR L0.
Proof.
  intros L0 L k H0 HL Hk. unfold xk. assert (HL0 := INR_pos L0 H0). assert (HLp := INR_pos L ltac:(lia)).
  assert (Hkl : INR k < INR L) by (apply lt_INR; exact Hk). assert (Hk0 := pos_INR k). split.
  - unfold Rdiv. apply Rmult_le_pos; [nra | left; apply Rinv_0_lt_compat; exact HLp].
  - apply (Rmult_lt_reg_r (INR L)); [exact HLp|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra.
Qed.

Lemma xk_lt : forall L0 L k1 k2, (1 <= L0)%nat -> (1 <= L)%nat -> (k1 < k2)%nat -> xk L0 L k1 < xk L0 L k2.
Proof.
  intros L0 L k1 k2 H0 HL Hk. unfold xk, Rdiv. apply Rmult_lt_compat_r; [apply Rinv_0_lt_compat, INR_pos; lia|].
  apply Rmult_lt_compat_r; [apply INR_pos; lia | apply lt_INR; exact Hk].
Qed.

Lemma xk_neq : forall L0 L k1 k2, (1 <= L0)%nat -> (1 <= L)%nat -> k1 <> k2 -> xk L0 L k1 <> xk L0 L k2.
Proof.
  intros L0 L k1 k2 H0 HL Hk E. destruct (Nat.lt_gt_cases k1 k2) as [[H|H] _]; [exact Hk|..].
  - pose proof (xk_lt L0 L k1 k2 H0 HL H). lra.
  - pose proof (xk_lt L0 L k2 k1 H0 HL H). lra.
Qed.

Lemma xk_half : forall L0 h, (1 <= h)%nat -> xk L0 (2 * h) h = INR L0 / 2.
Proof.
  intros L0 h Hh. unfold xk. rewrite mult_INR. simpl (INR 2). assert (H := INR_pos h Hh). field. lra.
Qed.

(* (a) density: a L0 / b (0 <= a < b) is the key 2 a L0 of the last row at L = 2 b L0 *)
Theorem pi_dense : forall L0 a b, (1 <= L0)%nat -> (a < b)%nat ->
  (2 * a * L0 < 2 * b * L0)%nat /\ xk L0 (2 * b * L0) (2 * a * L0) = INR a * INR L0 / INR b.
Proof.
  intros L0 a b H0 Hab. split; [nia|]. unfold xk. rewrite !mult_INR. simpl (INR 2).
  assert (HL0 := INR_pos L0 H0). assert (Hb := INR_pos b ltac:(lia)). field. lra.
Qed.

(* (b) copy / middle at even L *)
Theorem pi_copy_even : forall V L0 h, (1 <= L0)%nat -> (L0 <= 2 * h)%nat ->
  (forall x, 0 <= x < INR L0 -> x <> INR L0 / 2 -> V x < V (INR L0 / 2)) ->
  forall i, (h <= i < 2 * h)%nat -> realized_pi V L0 (2 * h) i h.
Proof.
  intros V L0 h H0 HL Hpeak i Hi. split; [lia|]. intros k Hk Hkh.
  assert (Hh : (1 <= h)%nat) by lia. rewrite xk_half by exact Hh.
  apply Hpeak.
  - apply xk_range; lia.
  - rewrite <- (xk_half L0 h Hh). apply xk_neq; lia.
Qed.

Theorem pi_copy_even_necessary : forall V L0, (1 <= L0)%nat ->
  (forall h, (L0 <= 2 * h)%nat -> forall i, (h <= i < 2 * h)%nat -> realized_pi V L0 (2 * h) i h) ->
  forall a b, (a < b)%nat -> (2 * a <> b)%nat -> V (INR a * INR L0 / INR b) < V (INR L0 / 2).
Proof.
  intros V L0 H0 Hall a b Hab Hmid.
  destruct (Hall (b * L0)%nat ltac:(nia) (2 * (b * L0) - 1)%nat ltac:(nia)) as [_ R].
  specialize (R (2 * a * L0)%nat ltac:(nia) ltac:(nia)).
  rewrite xk_half in R by nia.
  replace (2 * (b * L0))%nat with (2 * b * L0)%nat in R by ring.
  rewrite (proj2 (pi_dense L0 a b H0 Hab)) in R. exact R.
Qed.

(* (b) at odd L = 2 h + 1 the target h sits at L0/2 - L0/2L and key h + 1 at L0/2 + L0/2L *)
Theorem pi_copy_odd : forall V L0 h i, (1 <= L0)%nat -> (h < i < 2 * h + 1)%nat ->
  realized_pi V L0 (2 * h + 1) i h ->
  V (INR L0 / 2 + INR L0 / (2 * INR (2 * h + 1))) < V (INR L0 / 2 - INR L0 / (2 * INR (2 * h + 1))).
Proof.
  intros V L0 h i H0 Hi [_ R]. specialize (R (h + 1)%nat ltac:(lia) ltac:(lia)).
  assert (E1 : INR (2 * h + 1) = 2 * INR h + 1) by (rewrite plus_INR, mult_INR; simpl; ring).
  assert (E2 : INR (h + 1) = INR h + 1) by (rewrite plus_INR; simpl; ring).
  pose proof (pos_INR h).
  replace (INR L0 / 2 + INR L0 / (2 * INR (2 * h + 1))) with (xk L0 (2 * h + 1) (h + 1)).
  2: { unfold xk. rewrite E1, E2. field. lra. }
  replace (INR L0 / 2 - INR L0 / (2 * INR (2 * h + 1))) with (xk L0 (2 * h + 1) h).
  2: { unfold xk. rewrite E1. field. lra. }
  exact R.
Qed.

(* (c) fixed offsets (rope) / fixed positions (abscol): target key index c >= 1 *)
Theorem pi_offset_increasing : forall V L0 L c, (1 <= L0)%nat -> (L0 <= L)%nat -> (1 <= c)%nat ->
  (forall x y, 0 <= x -> x < y -> y <= xk L0 L (c + 1) -> V x < V y) ->
  realized_pi V L0 L c c /\ forall i, (c + 1 <= i)%nat -> ~ realized_pi V L0 L i c.
Proof.
  intros V L0 L c H0 HL Hc Hmono. split.
  - split; [lia|]. intros k Hk Hkc. apply Hmono.
    + unfold xk, Rdiv. apply Rmult_le_pos; [apply Rmult_le_pos; apply pos_INR|].
      left; apply Rinv_0_lt_compat, INR_pos; lia.
    + apply xk_lt; lia.
    + left. apply xk_lt; lia.
  - intros i Hi [_ R]. specialize (R (c + 1)%nat ltac:(lia) ltac:(lia)).
    assert (V (xk L0 L c) < V (xk L0 L (c + 1))).
    { apply Hmono; [|apply xk_lt; lia | lra].
      unfold xk, Rdiv. apply Rmult_le_pos; [apply Rmult_le_pos; apply pos_INR|].
      left; apply Rinv_0_lt_compat, INR_pos; lia. }
    lra.
Qed.

Theorem pi_offset_decreasing : forall V L0 L c, (1 <= L0)%nat -> (L0 <= L)%nat -> (1 <= c)%nat ->
  (forall x y, 0 <= x -> x < y -> y <= xk L0 L (c + 1) -> V y < V x) ->
  forall i, (c <= i)%nat -> ~ realized_pi V L0 L i c.
Proof.
  intros V L0 L c H0 HL Hc Hmono i Hi [_ R]. specialize (R (c - 1)%nat ltac:(lia) ltac:(lia)).
  assert (V (xk L0 L c) < V (xk L0 L (c - 1))).
  { apply Hmono; [|apply xk_lt; lia | left; apply xk_lt; lia].
    unfold xk, Rdiv. apply Rmult_le_pos; [apply Rmult_le_pos; apply pos_INR|].
    left; apply Rinv_0_lt_compat, INR_pos; lia. }
  lra.
Qed.

Theorem pi_offset_derivative : forall V (pr : derivable V) L0 L c,
  (1 <= L0)%nat -> (L0 <= L)%nat -> (1 <= c)%nat ->
  (forall t, 0 < t < xk L0 L (c + 1) -> 0 < derive_pt V t (pr t)) ->
  realized_pi V L0 L c c /\ forall i, (c + 1 <= i)%nat -> ~ realized_pi V L0 L i c.
Proof.
  intros V pr L0 L c H0 HL Hc Hd. apply pi_offset_increasing; try assumption.
  intros x y Hx Hxy Hy. assert (Htop : 0 < xk L0 L (c + 1)).
  { apply (Rle_lt_trans _ (xk L0 L 0)); [unfold xk; simpl; lra | apply xk_lt; lia]. }
  apply (derive_increasing_interv 0 (xk L0 L (c + 1)) V pr Htop Hd); lra.
Qed.

(* (d) position:0 of rope: the target key index is i, the row's largest *)
Theorem pi_position0_iff : forall V L0, (1 <= L0)%nat ->
  ((forall L, (L0 <= L)%nat -> forall i, (i < L)%nat -> realized_pi V L0 L i i) <->
   (forall a1 a2 b, (a1 < a2 < b)%nat -> V (INR a1 * INR L0 / INR b) < V (INR a2 * INR L0 / INR b))).
Proof.
  intros V L0 H0. split.
  - intros Hall a1 a2 b Ha. destruct (Hall (b * L0)%nat ltac:(nia) (a2 * L0)%nat ltac:(nia)) as [_ R].
    specialize (R (a1 * L0)%nat ltac:(nia) ltac:(nia)).
    assert (HL0 := INR_pos L0 H0). assert (Hb := INR_pos b ltac:(lia)).
    unfold xk in R. rewrite !mult_INR in R.
    replace (INR a1 * INR L0 * INR L0 / (INR b * INR L0)) with (INR a1 * INR L0 / INR b) in R by (field; lra).
    replace (INR a2 * INR L0 * INR L0 / (INR b * INR L0)) with (INR a2 * INR L0 / INR b) in R by (field; lra).
    exact R.
  - intros Hinc L HL i Hi. split; [lia|]. intros k Hk Hki.
    assert (HL0 := INR_pos L0 H0).
    assert (HLn : INR L <> 0) by (apply Rgt_not_eq, INR_pos; lia). assert (HL0n : INR L0 <> 0) by lra.
    replace (xk L0 L k) with (INR (k * L0) * INR L0 / INR (L * L0)).
    2: { unfold xk. rewrite !mult_INR. field; tauto. }
    replace (xk L0 L i) with (INR (i * L0) * INR L0 / INR (L * L0)).
    2: { unfold xk. rewrite !mult_INR. field; tauto. }
    apply Hinc. nia.
Qed.

Theorem pi_position0_reals : forall V L0, (1 <= L0)%nat ->
  (forall x y, 0 <= x -> x < y -> y < INR L0 -> V x < V y) ->
  forall L, (L0 <= L)%nat -> forall i, (i < L)%nat -> realized_pi V L0 L i i.
Proof.
  intros V L0 H0 Hinc L HL i Hi. split; [lia|]. intros k Hk Hki. apply Hinc.
  - apply xk_range; lia.
  - apply xk_lt; lia.
  - apply xk_range; lia.
Qed.

Theorem pi_position_local_max : forall V L0 L p i, (1 <= p)%nat -> (p < i)%nat ->
  realized_pi V L0 L i (i - p) ->
  V (xk L0 L (i - p - 1)) < V (xk L0 L (i - p)) /\ V (xk L0 L (i - p + 1)) < V (xk L0 L (i - p)).
Proof.
  intros V L0 L p i Hp Hi [_ R]. split; apply R; lia.
Qed.

(* (f) the row-keeping step: the transfer moves the value at key k by at most k D *)
Theorem keep_rows : forall (Vt Vs : nat -> R) (i kt : nat) (D g : R),
  (kt <= i)%nat -> 0 <= D ->
  (forall k, (k <= i)%nat -> Rabs (Vs k - Vt k) <= INR k * D) ->
  (forall k, (k <= i)%nat -> k <> kt -> Vt kt - Vt k >= g) ->
  2 * INR i * D < g ->
  forall k, (k <= i)%nat -> k <> kt -> Vs k < Vs kt.
Proof.
  intros Vt Vs i kt D g Hkt HD Hmove Hmargin Hg k Hk Hkkt.
  pose proof (Hmove k Hk) as A. pose proof (Hmove kt Hkt) as B. pose proof (Hmargin k Hk Hkkt).
  apply Rabs_le_between in A. apply Rabs_le_between in B.
  assert (INR k <= INR i) by (apply le_INR; exact Hk). assert (INR kt <= INR i) by (apply le_INR; exact Hkt).
  nra.
Qed.

(* (e) the frequency split: NTK's factor s^(2f/(d-2)) with d = 2h (frequencies f = 0..h-1), YaRN's
   factor 1 / ((1 - g)/s + g) with the ramp g = clip ((r - alpha)/(beta - alpha)) of the rotation count r *)

Definition ntk_factor (s : R) (h f : nat) : R := Rpower s (INR (2 * f) / INR (2 * h - 2)).

Theorem ntk_split : forall s h f, 1 < s -> (2 <= h)%nat -> (f < h)%nat ->
  ntk_factor s h 0 = 1 /\ ntk_factor s h (h - 1) = s /\
  ((0 < f < h - 1)%nat -> 1 < ntk_factor s h f < s).
Proof.
  intros s h f Hs Hh Hf. unfold ntk_factor.
  assert (Hd : 0 < INR (2 * h - 2)) by (apply lt_0_INR; lia).
  split; [|split].
  - replace (INR (2 * 0) / INR (2 * h - 2)) with 0. 2: { simpl. unfold Rdiv. ring. } apply Rpower_O. lra.
  - replace (INR (2 * (h - 1)) / INR (2 * h - 2)) with 1.
    2: { replace (2 * (h - 1))%nat with (2 * h - 2)%nat by lia. field. lra. }
    apply Rpower_1. lra.
  - intros Hf'. split.
    + rewrite <- (Rpower_O s) at 1 by lra. apply Rpower_lt; [lra|].
      apply Rdiv_lt_0_compat; [apply lt_0_INR; lia | exact Hd].
    + rewrite <- (Rpower_1 s) at 2 by lra. apply Rpower_lt; [lra|].
      apply (Rmult_lt_reg_r (INR (2 * h - 2))); [exact Hd|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra.
      rewrite Rmult_1_r, Rmult_1_l. apply lt_INR. lia.
Qed.

Definition clip01 (x : R) : R := Rmax 0 (Rmin x 1).
Definition yarn_gamma (a b r : R) : R := clip01 ((r - a) / (b - a)).
Definition yarn_factor (s g : R) : R := / ((1 - g) / s + g).

Theorem yarn_split : forall a b r s, a < b -> 1 < s ->
  (b <= r -> yarn_factor s (yarn_gamma a b r) = 1) /\
  (r <= a -> yarn_factor s (yarn_gamma a b r) = s) /\
  (a < r < b -> 1 < yarn_factor s (yarn_gamma a b r) < s).
Proof.
  intros a b r s Hab Hs. unfold yarn_factor, yarn_gamma, clip01.
  assert (Hba : 0 < b - a) by lra.
  split; [|split].
  - intros Hr. assert (1 <= (r - a) / (b - a)).
    { apply (Rmult_le_reg_r (b - a)); [exact Hba|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
    rewrite Rmin_right by lra. rewrite Rmax_right by lra. replace ((1 - 1) / s + 1) with 1 by (field; lra). apply Rinv_1.
  - intros Hr. assert ((r - a) / (b - a) <= 0).
    { apply (Rmult_le_reg_r (b - a)); [exact Hba|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. lra. }
    rewrite Rmin_left by lra. rewrite Rmax_left by lra. field. lra.
  - intros Hr. set (g := (r - a) / (b - a)).
    assert (Hg : 0 < g < 1).
    { unfold g. split; apply (Rmult_lt_reg_r (b - a)); try exact Hba; unfold Rdiv; rewrite Rmult_assoc, Rinv_l by lra; lra. }
    rewrite Rmin_left by lra. rewrite Rmax_right by lra.
    assert (Hq : 0 < (1 - g) / s) by (apply Rdiv_lt_0_compat; lra).
    assert (Hq1 : (1 - g) / s < 1 - g).
    { apply (Rmult_lt_reg_r s); [lra|]. unfold Rdiv. rewrite Rmult_assoc, Rinv_l by lra. nra. }
    assert (Hqs : 1 / s < (1 - g) / s + g).
    { apply (Rmult_lt_reg_r s); [lra|]. unfold Rdiv. rewrite Rmult_plus_distr_r, !Rmult_assoc, Rinv_l by lra. nra. }
    split.
    + rewrite <- Rinv_1. apply Rinv_lt_contravar; nra.
    + replace s with (/ (1 / s)) at 2 by (field; lra). apply Rinv_lt_contravar; [|exact Hqs].
      apply Rmult_lt_0_compat; [apply Rdiv_lt_0_compat; lra | lra].
Qed.

(* ---- negative controls *)
(* L = 3 odd, L0 = 2, V (x) = - (x - 1)^2 peaks at L0 / 2 = 1; row 2 ties its target (h = 1,
   x = 2/3) with key 2 (x = 4/3). *)
Theorem control_copy_odd :
  (forall x, 0 <= x < INR 2 -> x <> INR 2 / 2 -> - ((x - 1) * (x - 1)) < - ((INR 2 / 2 - 1) * (INR 2 / 2 - 1))) /\
  ~ realized_pi (fun x => - ((x - 1) * (x - 1))) 2 3 2 1.
Proof.
  split.
  - intros x Hx Hne. simpl in *. assert (x - 1 <> 0) by lra. nra.
  - intros [_ R]. specialize (R 2%nat ltac:(lia) ltac:(lia)). unfold xk in R. simpl in R. lra.
Qed.

(* Monotonicity dropped: c = 1, L0 = 2, L = 4 (x = k/2), V (x) = - (x - 1/2)^2 peaks at x_1: row 2
   >= c + 1 is realized. *)
Theorem control_offset_peak : realized_pi (fun x => - ((x - 1 / 2) * (x - 1 / 2))) 2 4 2 1.
Proof.
  split; [lia|]. intros k Hk Hk1. unfold xk. simpl.
  destruct k as [|[|[|k]]]; [simpl; lra | lia | simpl; lra | lia].
Qed.

(* V increasing on the integers 0, 1 (L0 = 2), V (x) = x + 4 x (1 - x): at L = 4 row 2 (x = 1)
   loses to key 1 (x = 1/2). *)
Definition wiggle (x : R) : R := x + 4 * x * (1 - x).

Theorem control_position_integers : wiggle 0 < wiggle 1 /\ ~ realized_pi wiggle 2 4 2 2.
Proof.
  unfold wiggle. split; [lra|]. intros [_ R]. specialize (R 1%nat ltac:(lia) ltac:(lia)).
  unfold xk, wiggle in R. simpl in R. lra.
Qed.

(* 2 i D < g weakened to i D < g: row i = 2, target key 2, D = 1, g = 5/2; the trained values
   0, 0, 5/2 move by at most k D to 0, 1, 1/2: key 1 now beats the target. *)
Definition vt (k : nat) : R := match k with 2%nat => 5 / 2 | _ => 0 end.
Definition vs (k : nat) : R := match k with 0%nat => 0 | 1%nat => 1 | _ => 1 / 2 end.

Theorem control_keep_bound :
  (forall k, (k <= 2)%nat -> Rabs (vs k - vt k) <= INR k * 1) /\
  (forall k, (k <= 2)%nat -> k <> 2%nat -> vt 2%nat - vt k >= 5 / 2) /\
  INR 2 * 1 < 5 / 2 /\ ~ vs 1%nat < vs 2%nat.
Proof.
  unfold vt, vs. repeat split.
  - intros k Hk. destruct k as [|[|[|k]]]; simpl; try lia.
    + replace (0 - 0) with 0 by ring. rewrite Rabs_R0. lra.
    + replace (1 - 0) with 1 by ring. rewrite Rabs_R1. lra.
    + rewrite Rabs_left by lra. lra.
  - intros k Hk Hk2. destruct k as [|[|[|k]]]; simpl; lra || lia.
  - simpl; lra.
  - lra.
Qed.

(* s > 1 dropped (s = 1): with h = 3 the middle frequency f = 1 (0 < f < h - 1) has factor exactly 1,
   not strictly above 1. *)
Theorem control_ntk_identity : (0 < 1 < 3 - 1)%nat /\ ~ (1 < ntk_factor 1 3 1).
Proof.
  split; [lia|]. unfold ntk_factor, Rpower. rewrite ln_1, Rmult_0_r, exp_0. lra.
Qed.

(* ---- (c) the threshold length L_c from a bound M2 on V'' (V1 = V', V2 = V'') *)
Lemma first_derivative_pos : forall V1 V2 M2 X, (forall x, derivable_pt_lim V1 x (V2 x)) ->
  (forall x, 0 <= x <= X -> Rabs (V2 x) <= M2) -> M2 * X < V1 0 -> forall x, 0 <= x <= X -> 0 < V1 x.
Proof.
  intros V1 V2 M2 X D B H x Hx. assert (M0 : 0 <= M2) by (pose proof (B 0 ltac:(lra)); pose proof (Rabs_pos (V2 0)); lra).
  destruct (Req_dec x 0) as [->|Ex]; [nra|].
  destruct (MVT_cor2 V1 V2 0 x ltac:(lra) (fun c _ => D c)) as [c [E Hc]].
  assert (Bc := B c ltac:(lra)). apply Rabs_le_between in Bc. destruct Bc as [B1 B2]. nra.
Qed.

(* the mirror image: first_derivative_pos applied to -V1, whose derivative is -V2 *)
Lemma first_derivative_neg : forall V1 V2 M2 X, (forall x, derivable_pt_lim V1 x (V2 x)) ->
  (forall x, 0 <= x <= X -> Rabs (V2 x) <= M2) -> M2 * X < - V1 0 -> forall x, 0 <= x <= X -> V1 x < 0.
Proof.
  intros V1 V2 M2 X D B H x Hx.
  assert (B' : forall y, 0 <= y <= X -> Rabs (- V2 y) <= M2) by (intros y Hy; rewrite Rabs_Ropp; exact (B y Hy)).
  pose proof (first_derivative_pos (fun y => - V1 y) (fun y => - V2 y) M2 X
                (fun y => derivable_pt_lim_opp V1 y (V2 y) (D y)) B' H x Hx) as P.
  simpl in P. lra.
Qed.

Lemma threshold_scaled : forall L0 L c M2 v, (1 <= L0)%nat -> (L0 <= L)%nat -> 0 < v ->
  INR (c + 1) * INR L0 * M2 / v < INR L -> M2 * xk L0 L (c + 1) < v.
Proof.
  intros L0 L c M2 v H0 HL Hv H. assert (HLp := INR_pos L ltac:(lia)).
  replace (M2 * xk L0 L (c + 1)) with (INR (c + 1) * INR L0 * M2 / v * (v / INR L)) by (unfold xk; field; lra).
  assert (Q : INR (c + 1) * INR L0 * M2 / v * (v / INR L) < INR L * (v / INR L))
    by (apply Rmult_lt_compat_r; [apply Rdiv_lt_0_compat; lra|exact H]).
  replace (INR L * (v / INR L)) with v in Q by (field; lra). exact Q.
Qed.

Theorem pi_offset_threshold_pos : forall V V1 V2 M2 L0 L c, (1 <= L0)%nat -> (L0 <= L)%nat -> (1 <= c)%nat ->
  (forall x, derivable_pt_lim V x (V1 x)) -> (forall x, derivable_pt_lim V1 x (V2 x)) ->
  (forall x, 0 <= x <= xk L0 L (c + 1) -> Rabs (V2 x) <= M2) ->
  0 < V1 0 -> INR (c + 1) * INR L0 * M2 / V1 0 < INR L ->
  realized_pi V L0 L c c /\ forall i, (c + 1 <= i)%nat -> ~ realized_pi V L0 L i c.
Proof.
  intros V V1 V2 M2 L0 L c H0 HL Hc DV DV1 B Hv HLc. apply pi_offset_increasing; try assumption.
  assert (P := first_derivative_pos V1 V2 M2 _ DV1 B (threshold_scaled L0 L c M2 (V1 0) H0 HL Hv HLc)).
  intros x y Hx Hxy Hy. destruct (MVT_cor2 V V1 x y Hxy (fun c' _ => DV c')) as [c' [E Hc']].
  assert (0 < V1 c') by (apply P; lra). nra.
Qed.

Theorem pi_offset_threshold_neg : forall V V1 V2 M2 L0 L c, (1 <= L0)%nat -> (L0 <= L)%nat -> (1 <= c)%nat ->
  (forall x, derivable_pt_lim V x (V1 x)) -> (forall x, derivable_pt_lim V1 x (V2 x)) ->
  (forall x, 0 <= x <= xk L0 L (c + 1) -> Rabs (V2 x) <= M2) ->
  V1 0 < 0 -> INR (c + 1) * INR L0 * M2 / (- V1 0) < INR L ->
  forall i, (c <= i)%nat -> ~ realized_pi V L0 L i c.
Proof.
  intros V V1 V2 M2 L0 L c H0 HL Hc DV DV1 B Hv HLc. apply pi_offset_decreasing; try assumption.
  assert (P := first_derivative_neg V1 V2 M2 _ DV1 B
                 (threshold_scaled L0 L c M2 (- V1 0) H0 HL ltac:(lra) HLc)).
  intros x y Hx Hxy Hy. destruct (MVT_cor2 V V1 x y Hxy (fun c' _ => DV c')) as [c' [E Hc']].
  assert (V1 c' < 0) by (apply P; lra). nra.
Qed.

(* ---- (c) target key index 0 (offset:0 of rope, position:0 of abscol) *)
Theorem pi_offset0_iff : forall V L0, (1 <= L0)%nat ->
  ((forall L, (L0 <= L)%nat -> forall i, (i < L)%nat -> realized_pi V L0 L i 0) <->
   (forall a b, (0 < a < b)%nat -> V (INR a * INR L0 / INR b) < V 0)).
Proof.
  intros V L0 H0. assert (Z : forall L, xk L0 L 0 = 0) by (intros L; unfold xk; simpl; lra). split.
  - intros Hall a b Hab. destruct (Hall (b * L0)%nat ltac:(nia) (a * L0)%nat ltac:(nia)) as [_ R].
    specialize (R (a * L0)%nat ltac:(lia) ltac:(nia)). rewrite Z in R.
    assert (HL0 := INR_pos L0 H0). assert (Hb := INR_pos b ltac:(lia)).
    unfold xk in R. rewrite !mult_INR in R.
    replace (INR a * INR L0 * INR L0 / (INR b * INR L0)) with (INR a * INR L0 / INR b) in R by (field; lra).
    exact R.
  - intros H L HL i Hi. split; [lia|]. intros k Hk Hk0. rewrite Z. unfold xk. apply H. lia.
Qed.

(* ---- (e) a parameter with weight only on extrapolated (or only on interpolated) frequencies *)
Fixpoint fsum (F : nat) (g : nat -> R) : R := match F with O => 0 | S f => fsum f g + g f end.

(* V_f : the frequency-f term of the profile; lam f : its factor lambda_f (s) *)
Definition profile (Vf : nat -> R -> R) (F : nat) (x : R) : R := fsum F (fun f => Vf f x).
Definition v_sigma (Vf : nat -> R -> R) (lam : nat -> R) (F k : nat) : R := fsum F (fun f => Vf f (INR k / lam f)).

Definition realized_key (W : nat -> R) (i kt : nat) : Prop :=
  (kt <= i)%nat /\ forall k, (k <= i)%nat -> k <> kt -> W k < W kt.

Lemma fsum_ext : forall F g h, (forall f, (f < F)%nat -> g f = h f) -> fsum F g = fsum F h.
Proof.
  intros F g h H; induction F as [|F IH]; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H F) by lia. reflexivity.
Qed.

Theorem split_extrapolated : forall Vf lam F,
  (forall f, (f < F)%nat -> lam f = 1 \/ forall x, Vf f x = 0) ->
  forall i kt, realized_key (v_sigma Vf lam F) i kt <-> realized_key (fun k => profile Vf F (INR k)) i kt.
Proof.
  intros Vf lam F H i kt.
  assert (E : forall k, v_sigma Vf lam F k = profile Vf F (INR k)).
  { intros k. apply fsum_ext. intros f Hf. destruct (H f Hf) as [->|Z]; [unfold Rdiv; rewrite Rinv_1, Rmult_1_r; reflexivity|].
    rewrite !Z. reflexivity. }
  unfold realized_key. setoid_rewrite E. reflexivity.
Qed.

Theorem split_interpolated : forall Vf lam F L0 L, (1 <= L0)%nat -> (L0 <= L)%nat ->
  (forall f, (f < F)%nat -> lam f = INR L / INR L0 \/ forall x, Vf f x = 0) ->
  forall i kt, realized_key (v_sigma Vf lam F) i kt <-> realized_pi (profile Vf F) L0 L i kt.
Proof.
  intros Vf lam F L0 L H0 HL H i kt. assert (HL0 := INR_pos L0 H0). assert (HLp := INR_pos L ltac:(lia)).
  assert (E : forall k, v_sigma Vf lam F k = profile Vf F (xk L0 L k)).
  { intros k. apply fsum_ext. intros f Hf. destruct (H f Hf) as [->|Z]; [|rewrite !Z; reflexivity].
    f_equal. unfold xk. field. lra. }
  unfold realized_key, realized_pi. setoid_rewrite E. reflexivity.
Qed.

(* ---- negative controls of the additions *)
(* L > L_c weakened to L >= L0: V x = x - x^2 (V' = 1 - 2 x, V'' = -2, M2 = 2), c = 1, L0 = 2:
   L_c = 2 * 2 * 2 / 1 = 8, and at L = 4 the row 2 >= c + 1 is realized *)
Theorem control_offset_threshold :
  (forall x, derivable_pt_lim (fun x => x - x * x) x (1 - 2 * x)) /\
  (forall x, derivable_pt_lim (fun x => 1 - 2 * x) x (-2)) /\ Rabs (-2) <= 2 /\ 0 < 1 - 2 * 0 /\
  ~ (INR (1 + 1) * INR 2 * 2 / (1 - 2 * 0) < INR 4) /\ realized_pi (fun x => x - x * x) 2 4 2 1.
Proof.
  split; [|split; [|split; [|split; [|split]]]].
  - intros x. replace (1 - 2 * x) with (1 - (1 * x + x * 1)) by ring.
    apply (derivable_pt_lim_minus (fun x => x) (fun x => x * x)); [apply derivable_pt_lim_id|].
    apply (derivable_pt_lim_mult (fun x => x) (fun x => x)); apply derivable_pt_lim_id.
  - intros x. replace (-2) with (0 - 2 * 1) by ring.
    apply (derivable_pt_lim_minus (fun _ => 1) (fun x => 2 * x)); [apply derivable_pt_lim_const|].
    apply (derivable_pt_lim_scal (fun x => x)). apply derivable_pt_lim_id.
  - rewrite Rabs_left by lra. lra.
  - lra.
  - simpl. lra.
  - split; [lia|]. intros k Hk Hk1. unfold xk. simpl.
    destruct k as [|[|[|k]]]; [simpl; lra | lia | simpl; lra | lia].
Qed.

(* V 0 > V x on the integer keys 1 of L0 = 2 only: V x = 4 x (1 - x) - x, V 0 = 0 > V 1 = -1, but at
   L = 4 row 1 has the key x = 1/2 with V = 1/2 *)
Theorem control_offset0_integers :
  (fun x => 4 * x * (1 - x) - x) 1 < (fun x => 4 * x * (1 - x) - x) 0 /\
  ~ realized_pi (fun x => 4 * x * (1 - x) - x) 2 4 1 0.
Proof.
  split; [lra|]. intros [_ R]. specialize (R 1%nat ltac:(lia) ltac:(lia)). unfold xk in R. simpl in R. lra.
Qed.

(* a frequency neither extrapolated nor interpolated (lambda = 2, s = 4): the kernel at key 1 is
   neither the one of T_L nor the one of PI *)
Theorem control_split_mixed :
  v_sigma (fun _ x => x) (fun _ => 2) 1 1 <> profile (fun _ x => x) 1 (INR 1) /\
  v_sigma (fun _ x => x) (fun _ => 2) 1 1 <> profile (fun _ x => x) 1 (xk 1 4 1).
Proof. unfold v_sigma, profile, xk. simpl. split; lra. Qed.

(* ---- (d) the count: a continuous V realizes position:p (p >= 1) on at most as many rows i > p
   as it has local maxima in (0, L0) (so alpha_L <= (1 + m) / (L - p), within the stated
   (1 + 2 m) / (L - p)) *)
Require Import List.

Definition local_max (V : R -> R) (c : R) : Prop := exists d, 0 < d /\ forall y, Rabs (y - c) < d -> V y <= V c.

Lemma xk_le : forall L0 L k1 k2, (1 <= L0)%nat -> (1 <= L)%nat -> (k1 <= k2)%nat -> xk L0 L k1 <= xk L0 L k2.
Proof.
  intros L0 L k1 k2 H0 HL Hk. destruct (Nat.eq_dec k1 k2) as [->|E]; [lra|]. left. apply xk_lt; lia.
Qed.

(* the point of a realized row i > p: a local maximum of V strictly between the keys around the target *)
Definition row_point (V : R -> R) (L0 L p i : nat) (c : R) : Prop :=
  xk L0 L (i - p - 1) < c < xk L0 L (i - p + 1) /\ local_max V c.

Lemma row_point_exists : forall V L0 L p i, (1 <= L0)%nat -> (1 <= p)%nat -> (p < i)%nat ->
  (forall x, continuity_pt V x) -> realized_pi V L0 L i (i - p) -> exists c, row_point V L0 L p i c.
Proof.
  intros V L0 L p i H0 Hp Hi C [_ R]. unfold row_point.
  destruct (Nat.le_gt_cases 1 L) as [HL|HL].
  2: { exfalso. assert (L = 0%nat) as -> by lia. specialize (R (i - p - 1)%nat ltac:(lia) ltac:(lia)).
       unfold xk in R. simpl in R. unfold Rdiv in R. rewrite Rinv_0, !Rmult_0_r in R. lra. }
  set (a := xk L0 L (i - p - 1)). set (b := xk L0 L (i - p + 1)).
  assert (Ra : V a < V (xk L0 L (i - p))) by (apply R; lia).
  assert (Rb : V b < V (xk L0 L (i - p))) by (apply R; lia).
  assert (Hab1 : a < xk L0 L (i - p)) by (apply xk_lt; lia).
  assert (Hab2 : xk L0 L (i - p) < b) by (apply xk_lt; lia).
  destruct (continuity_ab_maj V a b ltac:(lra) (fun c _ => C c)) as [M [HM [HaM HMb]]].
  assert (Vm : V (xk L0 L (i - p)) <= V M) by (apply HM; lra).
  assert (Ma : a < M) by (destruct HaM as [H|H]; [exact H|subst M; lra]).
  assert (Mb : M < b) by (destruct HMb as [H|H]; [exact H|subst M; lra]).
  exists M. split; [lra|]. exists (Rmin (M - a) (b - M)). split; [apply Rmin_glb_lt; lra|].
  intros y Hy. apply HM. pose proof (Rmin_l (M - a) (b - M)). pose proof (Rmin_r (M - a) (b - M)).
  apply Rlt_le, Rabs_le_between in Hy. lra.
Qed.

(* two realized rows i < i' (both > p) have targets at least 2 apart, so their points differ *)
Lemma row_points_differ : forall V L0 L p i i' c c', (1 <= L0)%nat -> (1 <= L)%nat -> (1 <= p)%nat ->
  (p < i)%nat -> (i < i')%nat -> realized_pi V L0 L i (i - p) -> realized_pi V L0 L i' (i' - p) ->
  row_point V L0 L p i c -> row_point V L0 L p i' c' -> c <> c'.
Proof.
  intros V L0 L p i i' c c' H0 HL Hp Hi Hii [_ R] [_ R'] [[_ Hc] _] [[Hc' _] _] E. subst c'.
  destruct (Nat.eq_dec (i' - p) (i - p + 1)) as [Ek|Ek].
  - assert (A : V (xk L0 L (i - p + 1)) < V (xk L0 L (i - p))) by (apply R; lia).
    assert (B : V (xk L0 L (i' - p - 1)) < V (xk L0 L (i' - p))) by (apply R'; lia).
    rewrite Ek in B. replace (i - p + 1 - 1)%nat with (i - p)%nat in B by lia. lra.
  - assert (xk L0 L (i - p + 1) <= xk L0 L (i' - p - 1)) by (apply xk_le; lia). lra.
Qed.

Lemma points_of_rows : forall (P : nat -> R -> Prop) (rows : list nat),
  (forall i, In i rows -> exists c, P i c) -> exists cs, Forall2 P rows cs.
Proof.
  intros P rows; induction rows as [|i rows IH]; intros H; [exists nil; constructor|].
  destruct (H i (or_introl eq_refl)) as [c Hc]. destruct IH as [cs Hcs]; [intros j Hj; apply H; right; exact Hj|].
  exists (c :: cs). constructor; assumption.
Qed.

Lemma forall2_length : forall (P : nat -> R -> Prop) l1 l2, Forall2 P l1 l2 -> length l1 = length l2.
Proof. intros P l1 l2 H; induction H; simpl; lia. Qed.

Lemma forall2_in_r : forall (P : nat -> R -> Prop) l1 l2 c, Forall2 P l1 l2 -> In c l2 -> exists i, In i l1 /\ P i c.
Proof.
  intros P l1 l2 c H; induction H as [|i c' l1 l2 Hp H IH]; intros Hc; [destruct Hc|].
  destruct Hc as [<-|Hc]; [exists i; split; [left; reflexivity|exact Hp]|].
  destruct (IH Hc) as [j [Hj Pj]]. exists j. split; [right; exact Hj|exact Pj].
Qed.

Lemma forall2_nodup : forall (P : nat -> R -> Prop) l1 l2, Forall2 P l1 l2 -> NoDup l1 ->
  (forall i i' c, In i l1 -> In i' l1 -> i <> i' -> P i c -> P i' c -> False) -> NoDup l2.
Proof.
  intros P l1 l2 H; induction H as [|i c l1 l2 Hp H IH]; intros N D; [constructor|].
  inversion N as [|? ? Ni N1]; subst. constructor.
  - intros Hc. destruct (forall2_in_r P l1 l2 c H Hc) as [j [Hj Pj]].
    apply (D i j c); [left; reflexivity|right; exact Hj|intros ->; contradiction|exact Hp|exact Pj].
  - apply IH; [exact N1|]. intros a b c' Ha Hb. apply D; right; assumption.
Qed.

Theorem pi_position_rows_bound : forall V L0 L p (rows : list nat) (maxima : list R),
  (1 <= L0)%nat -> (L0 <= L)%nat -> (1 <= p)%nat -> (forall x, continuity_pt V x) ->
  NoDup rows -> (forall i, In i rows -> (p < i < L)%nat /\ realized_pi V L0 L i (i - p)) ->
  (forall c, 0 < c < INR L0 -> local_max V c -> In c maxima) ->
  (length rows <= length maxima)%nat.
Proof.
  intros V L0 L p rows maxima H0 HL Hp C N Hrows Hmax.
  destruct (points_of_rows (row_point V L0 L p) rows) as [cs Hcs].
  { intros i Hi. destruct (Hrows i Hi) as [Hi' R]. apply (row_point_exists V L0 L p i H0 Hp ltac:(lia) C R). }
  rewrite (forall2_length _ _ _ Hcs). apply NoDup_incl_length.
  - apply (forall2_nodup _ _ _ Hcs N). intros i i' c Hi Hi' E Pi Pi'.
    destruct (Hrows i Hi) as [Ri Ri']. destruct (Hrows i' Hi') as [Si Si'].
    destruct (Nat.lt_gt_cases i i') as [[Lt|Gt] _]; [exact E|..].
    + exact (row_points_differ V L0 L p i i' c c H0 ltac:(lia) Hp ltac:(lia) Lt Ri' Si' Pi Pi' eq_refl).
    + exact (row_points_differ V L0 L p i' i c c H0 ltac:(lia) Hp ltac:(lia) Gt Si' Ri' Pi' Pi eq_refl).
  - intros c Hc. destruct (forall2_in_r _ _ _ c Hcs Hc) as [i [Hi [[Hlo Hhi] Lm]]].
    destruct (Hrows i Hi) as [Hi' _]. apply Hmax; [|exact Lm]. split.
    + assert (0 <= xk L0 L (i - p - 1)) by (apply xk_range; lia). lra.
    + assert (xk L0 L (i - p + 1) < INR L0) by (apply xk_range; lia). lra.
Qed.

Corollary pi_position_alpha_bound : forall V L0 L p (rows : list nat) (maxima : list R),
  (1 <= L0)%nat -> (L0 <= L)%nat -> (1 <= p)%nat -> (forall x, continuity_pt V x) ->
  NoDup rows -> (forall i, In i rows -> (p <= i < L)%nat /\ realized_pi V L0 L i (i - p)) ->
  (forall c, 0 < c < INR L0 -> local_max V c -> In c maxima) ->
  (length rows <= 1 + length maxima)%nat.
Proof.
  intros V L0 L p rows maxima H0 HL Hp C N Hrows Hmax.
  assert (Split : (length rows <= 1 + length (filter (fun i => Nat.ltb p i) rows))%nat).
  { assert (G : forall l, NoDup l -> (forall i, In i l -> (p <= i)%nat) ->
                  (length l <= 1 + length (filter (fun i => Nat.ltb p i) l))%nat /\
                  (~ In p l -> length l = length (filter (fun i => Nat.ltb p i) l))).
    { intros l; induction l as [|a l IH]; intros Nl Hl; simpl; [lia|].
      inversion Nl as [|? ? Na Nl']; subst.
      destruct IH as [IH1 IH2]; [exact Nl'|intros i Hi; apply Hl; right; exact Hi|].
      destruct (Nat.ltb_spec p a) as [Lt|Ge]; simpl.
      - split; [lia|]. intros Hn. rewrite IH2; [reflexivity|]. intros Hp'. apply Hn. right. exact Hp'.
      - assert (a = p) as -> by (specialize (Hl a (or_introl eq_refl)); lia).
        split; [rewrite (IH2 Na); lia|]. intros Hn. exfalso. apply Hn. left. reflexivity. }
    apply (G rows N). intros i Hi. apply Hrows, Hi. }
  assert (B : (length (filter (fun i => Nat.ltb p i) rows) <= length maxima)%nat).
  { apply (pi_position_rows_bound V L0 L p _ maxima H0 HL Hp C (NoDup_filter _ N)); [|exact Hmax].
    intros i Hi. apply filter_In in Hi as [Hi Lt]. apply Nat.ltb_lt in Lt.
    destruct (Hrows i Hi) as [Hr R]. split; [lia|exact R]. }
  lia.
Qed.

(* continuity dropped: V x = x below 1, x - 10 from 1 on (L0 = 2) has no local maximum in (0, 2),
   yet at L = 4 row 2 of position:1 (target x = 1/2) is realized *)
Definition jump (x : R) : R := if Rlt_dec x 1 then x else x - 10.

Theorem control_position_discontinuous :
  (forall c, 0 < c < INR 2 -> ~ local_max jump c) /\ realized_pi jump 2 4 2 (2 - 1).
Proof.
  split.
  - intros c Hc [d [Hd H]]. simpl in Hc. unfold jump in H.
    destruct (Rlt_dec c 1) as [Lt|Ge].
    + set (y := c + Rmin (d / 2) ((1 - c) / 2)).
      assert (Y1 : 0 < Rmin (d / 2) ((1 - c) / 2)) by (apply Rmin_glb_lt; lra).
      assert (Y2 : Rmin (d / 2) ((1 - c) / 2) <= d / 2) by apply Rmin_l.
      assert (Y3 : Rmin (d / 2) ((1 - c) / 2) <= (1 - c) / 2) by apply Rmin_r.
      specialize (H y). unfold y in H. rewrite Rabs_right in H by lra.
      destruct (Rlt_dec (c + Rmin (d / 2) ((1 - c) / 2)) 1) as [_|N]; [|lra].
      assert (V := H ltac:(lra)). lra.
    + specialize (H (c + d / 2)). rewrite Rabs_right in H by lra.
      destruct (Rlt_dec (c + d / 2) 1) as [N|_]; [lra|]. assert (V := H ltac:(lra)). lra.
  - split; [simpl; lia|]. intros k Hk Hk1. unfold xk, jump.
    assert (E1 : INR (2 - 1) * INR 2 / INR 4 = 1 / 2) by (simpl; field; lra).
    rewrite E1. destruct (Rlt_dec (1 / 2) 1) as [_|N]; [|lra].
    destruct k as [|[|[|k]]]; [|lia| |lia].
    + assert (E0 : INR 0 * INR 2 / INR 4 = 0) by (simpl; field; lra).
      rewrite E0. destruct (Rlt_dec 0 1); lra.
    + assert (E2 : INR 2 * INR 2 / INR 4 = 1) by (simpl; field; lra).
      rewrite E2. destruct (Rlt_dec 1 1); lra.
Qed.

(* ---- (f) the bound Delta_sigma (s) from the frequencies: V_f (x) = a_f cos (w_f x) + b_f sin (w_f x) *)
Lemma abs_sin_le : forall x, Rabs (sin x) <= Rabs x.
Proof.
  intros x. destruct (Rtotal_order x 0) as [Lt|[->|Gt]].
  - destruct (MVT_cor2 sin cos x 0 Lt (fun c _ => derivable_pt_lim_sin c)) as [c [E _]].
    rewrite sin_0 in E. pose proof (COS_bound c). rewrite (Rabs_left x Lt).
    assert (sin x = cos c * x) by lra. rewrite H0. rewrite Rabs_mult, (Rabs_left x Lt).
    assert (Rabs (cos c) <= 1) by (apply Rabs_le; lra). nra.
  - rewrite sin_0, Rabs_R0. lra.
  - destruct (MVT_cor2 sin cos 0 x Gt (fun c _ => derivable_pt_lim_sin c)) as [c [E _]].
    rewrite sin_0 in E. pose proof (COS_bound c). rewrite (Rabs_right x) by lra.
    assert (sin x = cos c * x) by lra. rewrite H0. rewrite Rabs_mult, (Rabs_right x) by lra.
    assert (Rabs (cos c) <= 1) by (apply Rabs_le; lra). nra.
Qed.

Lemma rotation_bound : forall a b m, Rabs (- a * sin m + b * cos m) <= sqrt (a * a + b * b).
Proof.
  intros a b m. rewrite <- sqrt_Rsqr_abs. apply sqrt_le_1_alt.
  pose proof (sin2_cos2 m). unfold Rsqr in *.
  assert (L : (a * a + b * b) * (sin m * sin m + cos m * cos m) - (- a * sin m + b * cos m) * (- a * sin m + b * cos m)
              = (a * cos m + b * sin m) * (a * cos m + b * sin m)) by ring.
  assert (0 <= (a * cos m + b * sin m) * (a * cos m + b * sin m)) by apply Rle_0_sqr. nra.
Qed.

Definition term (a b w x : R) : R := a * cos (w * x) + b * sin (w * x).

Lemma term_lipschitz : forall a b w x y, 0 <= w ->
  Rabs (term a b w x - term a b w y) <= w * sqrt (a * a + b * b) * Rabs (x - y).
Proof.
  intros a b w x y Hw. unfold term.
  replace (a * cos (w * x) + b * sin (w * x) - (a * cos (w * y) + b * sin (w * y)))
    with (a * (cos (w * x) - cos (w * y)) + b * (sin (w * x) - sin (w * y))) by ring.
  rewrite form2, form4.
  set (d := (w * x - w * y) / 2). set (m := (w * x + w * y) / 2).
  replace (a * (-2 * sin d * sin m) + b * (2 * cos m * sin d)) with (2 * sin d * (- a * sin m + b * cos m)) by ring.
  rewrite !Rabs_mult, (Rabs_right 2) by lra.
  assert (Sd : Rabs (sin d) <= Rabs d) by apply abs_sin_le.
  assert (Ed : 2 * Rabs d = w * Rabs (x - y)).
  { unfold d. replace ((w * x - w * y) / 2) with (w * (x - y) / 2) by field.
    unfold Rdiv. rewrite !Rabs_mult, (Rabs_right w) by lra. rewrite (Rabs_right (/ 2)) by lra. field. }
  pose proof (rotation_bound a b m). pose proof (Rabs_pos (sin d)).
  pose proof (Rabs_pos (- a * sin m + b * cos m)). pose proof (sqrt_pos (a * a + b * b)). nra.
Qed.

Lemma fsum_abs : forall F g h, Rabs (fsum F g - fsum F h) <= fsum F (fun f => Rabs (g f - h f)).
Proof.
  intros F g h; induction F as [|F IH]; simpl; [rewrite Rminus_0_r, Rabs_R0; lra|].
  replace (fsum F g + g F - (fsum F h + h F)) with ((fsum F g - fsum F h) + (g F - h F)) by ring.
  eapply Rle_trans; [apply Rabs_triang|]. lra.
Qed.

Lemma fsum_le : forall F g h, (forall f, (f < F)%nat -> g f <= h f) -> fsum F g <= fsum F h.
Proof.
  intros F g h H; induction F as [|F IH]; simpl; [lra|].
  assert (fsum F g <= fsum F h) by (apply IH; intros; apply H; lia). assert (g F <= h F) by (apply H; lia). lra.
Qed.

Lemma fsum_scale : forall F c g, fsum F (fun f => c * g f) = c * fsum F g.
Proof. intros F c g; induction F as [|F IH]; simpl; [ring|]. rewrite IH. ring. Qed.

Definition v_freq (a b w : nat -> R) (F : nat) (x : nat -> R) : R := fsum F (fun f => term (a f) (b f) (w f) (x f)).
Definition delta_sigma (a b w lam : nat -> R) (F : nat) : R :=
  fsum F (fun f => w f * sqrt (a f * a f + b f * b f) * Rabs (1 - / lam f)).

Theorem transfer_moves_key : forall a b w lam F k, (forall f, (f < F)%nat -> 0 <= w f /\ 0 < lam f) ->
  Rabs (v_freq a b w F (fun f => INR k / lam f) - v_freq a b w F (fun _ => INR k)) <= INR k * delta_sigma a b w lam F.
Proof.
  intros a b w lam F k H. unfold v_freq, delta_sigma. eapply Rle_trans; [apply fsum_abs|].
  rewrite <- fsum_scale. apply fsum_le. intros f Hf. destruct (H f Hf) as [Hw Hl].
  eapply Rle_trans; [apply term_lipschitz; exact Hw|].
  replace (INR k / lam f - INR k) with (INR k * (/ lam f - 1)) by (field; lra).
  rewrite Rabs_mult, (Rabs_right (INR k)) by (apply Rle_ge, pos_INR).
  replace (Rabs (/ lam f - 1)) with (Rabs (1 - / lam f)) by (rewrite <- Rabs_Ropp; f_equal; ring).
  right. ring.
Qed.

Theorem keep_rows_sigma : forall a b w lam F i kt g, (forall f, (f < F)%nat -> 0 <= w f /\ 0 < lam f) ->
  (kt <= i)%nat ->
  (forall k, (k <= i)%nat -> k <> kt -> v_freq a b w F (fun _ => INR kt) - v_freq a b w F (fun _ => INR k) >= g) ->
  2 * INR i * delta_sigma a b w lam F < g ->
  realized_key (fun k => v_freq a b w F (fun f => INR k / lam f)) i kt.
Proof.
  intros a b w lam F i kt g H Hkt Hm Hg. split; [exact Hkt|].
  assert (D0 : 0 <= delta_sigma a b w lam F).
  { unfold delta_sigma. replace 0 with (fsum F (fun _ => 0)) by (clear; induction F; simpl; lra).
    apply fsum_le. intros f Hf. destruct (H f Hf) as [Hw _].
    apply Rmult_le_pos; [apply Rmult_le_pos; [exact Hw|apply sqrt_pos]|apply Rabs_pos]. }
  exact (keep_rows (fun k => v_freq a b w F (fun _ => INR k)) (fun k => v_freq a b w F (fun f => INR k / lam f))
           i kt (delta_sigma a b w lam F) g Hkt D0 (fun k _ => transfer_moves_key a b w lam F k H) Hm Hg).
Qed.

(* w >= 0 dropped: w = - PI, a = -1, b = 0, lam = 1/2: row 1 realized at margin 2 for target 1 by
   the trained profile, 2 i Delta = - 2 PI < 2, and under the transfer keys 0 and 1 tie *)
Theorem control_keep_sigma_frequency_sign :
  (forall k, (k <= 1)%nat -> k <> 1%nat ->
     v_freq (fun _ => -1) (fun _ => 0) (fun _ => - PI) 1 (fun _ => INR 1) -
     v_freq (fun _ => -1) (fun _ => 0) (fun _ => - PI) 1 (fun _ => INR k) >= 2) /\
  2 * INR 1 * delta_sigma (fun _ => -1) (fun _ => 0) (fun _ => - PI) (fun _ => 1 / 2) 1 < 2 /\
  ~ realized_key (fun k => v_freq (fun _ => -1) (fun _ => 0) (fun _ => - PI) 1 (fun f => INR k / (1 / 2))) 1 1.
Proof.
  pose proof PI_RGT_0 as HPI. split; [|split].
  - intros k Hk Hk1. assert (k = 0%nat) as -> by lia. unfold v_freq, term. simpl.
    replace (- PI * 1) with (- PI) by ring. replace (- PI * 0) with 0 by ring.
    rewrite cos_neg, cos_PI, cos_0, sin_neg, sin_PI, sin_0. lra.
  - unfold delta_sigma. simpl. replace (1 - / (1 / 2)) with (-1) by field.
    rewrite Rabs_left by lra. replace (-1 * -1 + 0 * 0) with 1 by ring. rewrite sqrt_1. lra.
  - intros [_ R]. specialize (R 0%nat ltac:(lia) ltac:(lia)). unfold v_freq, term in R. simpl in R.
    replace (- PI * (1 / (1 / 2))) with (- (2 * PI)) in R by (field; lra).
    replace (- PI * (0 / (1 / 2))) with 0 in R by (field; lra).
    rewrite cos_neg, cos_2PI, cos_0, sin_neg, sin_2PI, sin_0 in R. lra.
Qed.
