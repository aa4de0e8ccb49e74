(* Theorem 2 (relative deep-row characterization), for every length.

   Formalizes, from docs/definitions.md:
   - #grid: row i of a grid of length n sees the keys j = 0..i; a relative kernel scores key j
     of row i by r (i - j), r : nat -> A over any strictly ordered type A (a section variable
     lt with irreflexivity and transitivity; the results are instantiated at R below).
   - #realization-and-margin: [realized r i t] is "r (i - t) > r (i - j) for every other key j".
   - #theorem-2: [unique_max r N d] is "d < N and r d > r k for every other offset k < N"
     (d is the unique maximizer dstar); row i is deep when d <= i.
   - #positional-task: the rows and targets of copy, middle, reverse and half (h = n / 2,
     reverse's rows start at (n + 1) / 2, the ceiling of n / 2).

   Main results:
   - deep_row_iff: a deep row is realized for t iff t = i - dstar;
   - shallow_row_iff: a shallow row is realized for t iff i - t is the unique maximizer of r
     on 0..i;
   - deep_rows_iff_offset: a task is realized on every deep row of every length n <= N iff it
     agrees there with offset:dstar;
   - position_one_deep_row: position:p is realized on at most one deep row per length;
   - copy_exact, middle_exact, reverse_exact, half_exact: the exact lengths at which every deep
     row of each growing task is realized, and the bounds they give (copy_bound, half_bound:
     n <= 2 dstar + 1; middle_bound: n <= 2 dstar + 2; reverse_bound: n <= dstar + 1);
   - copy_last_row_bound etc.: the same bounds when only the last row n - 1 is realized, and
     each is attained (copy_last_row_tight etc.);
   - slope_realizes_position0 and slope_no_maximizer: where it breaks, r d = m d with m > 0
     has no maximizer on nat and realizes position:0 on every row of every length.

   Negative controls (a hypothesis dropped or weakened, the conclusion refuted on a concrete
   instance): control_deep_weak_max, control_deep_shallow, control_position_depth,
   control_growing_offset, control_slope_sign. *)

Require Import Arith Lia Reals Lra.

Section Order.

Variable A : Type.
Variable lt : A -> A -> Prop.
Hypothesis lt_irrefl : forall a, ~ lt a a.
Hypothesis lt_trans : forall a b c, lt a b -> lt b c -> lt a c.

Definition unique_max (r : nat -> A) (N d : nat) : Prop :=
  d < N /\ forall k, k < N -> k <> d -> lt (r k) (r d).

Definition realized (r : nat -> A) (i t : nat) : Prop :=
  t <= i /\ forall j, j <= i -> j <> t -> lt (r (i - j)) (r (i - t)).

Definition prefix_argmax (r : nat -> A) (i m : nat) : Prop :=
  m <= i /\ forall k, k <= i -> k <> m -> lt (r k) (r m).

Theorem deep_row_iff : forall r N d n i t,
  unique_max r N d -> n <= N -> i < n -> d <= i -> t <= i ->
  (realized r i t <-> t = i - d).
Proof.
  intros r N d n i t [Hd Hmax] HnN Hi Hdeep Ht; split.
  - intros [_ Hreal]. destruct (Nat.eq_dec t (i - d)) as [E|E]; [exact E|exfalso].
    assert (H1 : lt (r (i - (i - d))) (r (i - t))) by (apply Hreal; lia).
    replace (i - (i - d)) with d in H1 by lia.
    assert (H2 : lt (r (i - t)) (r d)) by (apply Hmax; lia).
    exact (lt_irrefl _ (lt_trans _ _ _ H1 H2)).
  - intros ->. split; [lia|]. intros j Hj Hjt.
    replace (i - (i - d)) with d by lia. apply Hmax; lia.
Qed.

Lemma deep_only : forall r N d n i t,
  unique_max r N d -> n <= N -> i < n -> d <= i -> realized r i t -> t = i - d.
Proof.
  intros r N d n i t Hu HnN Hi Hd R. assert (t <= i) by apply R.
  exact (proj1 (deep_row_iff r N d n i t Hu HnN Hi Hd ltac:(assumption)) R).
Qed.

Lemma deep_if : forall r N d n i,
  unique_max r N d -> n <= N -> i < n -> d <= i -> realized r i (i - d).
Proof.
  intros r N d n i Hu HnN Hi Hd.
  exact (proj2 (deep_row_iff r N d n i (i - d) Hu HnN Hi Hd ltac:(lia)) eq_refl).
Qed.

Lemma deep_if_eq : forall r N d n i t,
  unique_max r N d -> n <= N -> i < n -> d <= i -> t = i - d -> realized r i t.
Proof. intros r N d n i t Hu HnN Hi Hd ->. apply (deep_if r N d n i); assumption. Qed.

Theorem shallow_row_iff : forall r N d n i t,
  unique_max r N d -> n <= N -> i < n -> i < d -> t <= i ->
  (realized r i t <-> prefix_argmax r i (i - t)).
Proof.
  intros r N d n i t _ _ _ _ Ht; split.
  - intros [_ Hreal]. split; [lia|]. intros k Hk Hkt.
    replace k with (i - (i - k)) by lia. apply Hreal; lia.
  - intros [_ Harg]. split; [lia|]. intros j Hj Hjt. apply Harg; lia.
Qed.

Theorem deep_rows_iff_offset : forall r N d (rows : nat -> nat -> Prop) (tgt : nat -> nat -> nat),
  unique_max r N d -> (forall n i, rows n i -> tgt n i <= i) ->
  ((forall n i, n <= N -> i < n -> d <= i -> rows n i -> realized r i (tgt n i)) <->
   (forall n i, n <= N -> i < n -> d <= i -> rows n i -> tgt n i = i - d)).
Proof.
  intros r N d rows tgt Hu Ht; split; intros H n i HnN Hi Hdeep Hrow.
  - apply (deep_only r N d n i); auto.
  - apply (deep_if_eq r N d n i); auto.
Qed.

Theorem position_one_deep_row : forall r N d n p i1 i2,
  unique_max r N d -> n <= N -> i1 < n -> i2 < n -> d <= i1 -> d <= i2 ->
  p <= i1 -> p <= i2 -> realized r i1 p -> realized r i2 p -> i1 = i2.
Proof.
  intros r N d n p i1 i2 Hu HnN H1 H2 D1 D2 P1 P2 R1 R2.
  apply (deep_only r N d n i1 p Hu) in R1; auto.
  apply (deep_only r N d n i2 p Hu) in R2; auto. lia.
Qed.

(* The growing tasks of the registry: rows and target at length n, h = n / 2. *)
Definition copy_row n i := n / 2 <= i /\ i < n.
Definition copy_tgt n i := i - n / 2.
Definition middle_row n i := n / 2 <= i /\ i < n.
Definition middle_tgt (n i : nat) := n / 2.
Definition reverse_row n i := (n + 1) / 2 <= i /\ i < n.
Definition reverse_tgt n i := n - 1 - i.
Definition half_row n i := i < n.
Definition half_tgt (n i : nat) := i / 2.

Definition all_deep (row : nat -> nat -> Prop) (tgt : nat -> nat -> nat) r d n : Prop :=
  forall i, d <= i -> row n i -> realized r i (tgt n i).

Ltac halves n := pose proof (Nat.div_mod n 2 ltac:(lia)); pose proof (Nat.mod_upper_bound n 2 ltac:(lia)).

Theorem copy_exact : forall r N d n, unique_max r N d -> 1 <= n <= N ->
  (all_deep copy_row copy_tgt r d n <-> n <= d \/ n / 2 = d).
Proof.
  intros r N d n Hu Hn; unfold all_deep, copy_row, copy_tgt; halves n; split.
  - intros Hall. destruct (le_lt_dec n d) as [Hle|Hlt]; [now left|right].
    assert (R := Hall (n - 1) ltac:(lia) ltac:(lia)).
    pose proof (deep_only r N d n (n - 1) _ Hu ltac:(lia) ltac:(lia) ltac:(lia) R); try lia.
  - intros [Hle|Heq] i Hdi [Hh Hi]; [lia|].
    apply (deep_if_eq r N d n i); first [assumption | lia].
Qed.

Theorem middle_exact : forall r N d n, unique_max r N d -> 1 <= n <= N ->
  (all_deep middle_row middle_tgt r d n <-> n <= d \/ (d = 0 /\ n <= 2)).
Proof.
  intros r N d n Hu Hn; unfold all_deep, middle_row, middle_tgt; halves n; split.
  - intros Hall. destruct (le_lt_dec n d) as [Hle|Hlt]; [now left|right].
    assert (Rlast := Hall (n - 1) ltac:(lia) ltac:(lia)).
    pose proof (deep_only r N d n (n - 1) _ Hu ltac:(lia) ltac:(lia) ltac:(lia) Rlast); try lia.
    assert (Rfirst := Hall (Nat.max (n / 2) d) ltac:(lia) ltac:(lia)).
    pose proof (deep_only r N d n (Nat.max (n / 2) d) _ Hu ltac:(lia) ltac:(lia) ltac:(lia) Rfirst); try lia.
  - intros [Hle|[Hd0 Hn2]] i Hdi [Hh Hi]; [lia|].
    apply (deep_if_eq r N d n i); first [assumption | lia].
Qed.

Theorem reverse_exact : forall r N d n, unique_max r N d -> 1 <= n <= N ->
  (all_deep reverse_row reverse_tgt r d n <-> n <= d + 1).
Proof.
  intros r N d n Hu Hn; unfold all_deep, reverse_row, reverse_tgt; halves (n + 1); split.
  - intros Hall. destruct (le_lt_dec n (d + 1)) as [Hle|Hlt]; [exact Hle|exfalso].
    assert (R := Hall (n - 1) ltac:(lia) ltac:(lia)).
    pose proof (deep_only r N d n (n - 1) _ Hu ltac:(lia) ltac:(lia) ltac:(lia) R); try lia.
  - intros Hle i Hdi [Hh Hi]. apply (deep_if_eq r N d n i); first [assumption | lia].
Qed.

Theorem half_exact : forall r N d n, unique_max r N d -> 1 <= n <= N ->
  (all_deep half_row half_tgt r d n <-> n <= d \/ (d <= 1 /\ n <= 2 * d + 1)).
Proof.
  intros r N d n Hu Hn; unfold all_deep, half_row, half_tgt; halves d; halves (n - 1); split.
  - intros Hall. destruct (le_lt_dec n d) as [Hle|Hlt]; [now left|right].
    assert (Rd := Hall d ltac:(lia) ltac:(lia)).
    pose proof (deep_only r N d n d _ Hu ltac:(lia) ltac:(lia) ltac:(lia) Rd); try lia.
    assert (Rl := Hall (n - 1) ltac:(lia) ltac:(lia)).
    pose proof (deep_only r N d n (n - 1) _ Hu ltac:(lia) ltac:(lia) ltac:(lia) Rl); try lia.
  - intros [Hle|[Hd1 Hn2]] i Hdi Hi; [lia|]. halves i.
    apply (deep_if_eq r N d n i); first [assumption | lia].
Qed.

Corollary copy_bound : forall r N d n, unique_max r N d -> 1 <= n <= N ->
  all_deep copy_row copy_tgt r d n -> n <= 2 * d + 1.
Proof. intros r N d n Hu Hn H. apply (copy_exact r N d n Hu Hn) in H. halves n. lia. Qed.

Corollary middle_bound : forall r N d n, unique_max r N d -> 1 <= n <= N ->
  all_deep middle_row middle_tgt r d n -> n <= 2 * d + 2.
Proof. intros r N d n Hu Hn H. apply (middle_exact r N d n Hu Hn) in H. lia. Qed.

Corollary reverse_bound : forall r N d n, unique_max r N d -> 1 <= n <= N ->
  all_deep reverse_row reverse_tgt r d n -> n <= d + 1.
Proof. intros r N d n Hu Hn H. apply (reverse_exact r N d n Hu Hn) in H. lia. Qed.

Corollary half_bound : forall r N d n, unique_max r N d -> 1 <= n <= N ->
  all_deep half_row half_tgt r d n -> n <= 2 * d + 1.
Proof. intros r N d n Hu Hn H. apply (half_exact r N d n Hu Hn) in H. lia. Qed.

(* The last row n - 1 alone: realized only below the same bounds, and each bound is attained. *)
Definition last_realized (row : nat -> nat -> Prop) (tgt : nat -> nat -> nat) r n : Prop :=
  row n (n - 1) /\ realized r (n - 1) (tgt n (n - 1)).

Ltac last_bound T :=
  intros r N d n Hu Hn [Hrow R]; unfold T in *;
  destruct (le_lt_dec n d) as [Hle|Hlt]; [lia|];
  pose proof (deep_only r N d n (n - 1) _ Hu ltac:(lia) ltac:(lia) ltac:(lia) R); try lia.

Theorem copy_last_row_bound : forall r N d n, unique_max r N d -> 1 <= n <= N ->
  last_realized copy_row copy_tgt r n -> n <= 2 * d + 1.
Proof. last_bound copy_row; unfold copy_tgt in *; halves n; lia. Qed.

Theorem middle_last_row_bound : forall r N d n, unique_max r N d -> 1 <= n <= N ->
  last_realized middle_row middle_tgt r n -> n <= 2 * d + 2.
Proof. last_bound middle_row; unfold middle_tgt in *; halves n; lia. Qed.

Theorem reverse_last_row_bound : forall r N d n, unique_max r N d -> 1 <= n <= N ->
  last_realized reverse_row reverse_tgt r n -> n <= d + 1.
Proof. last_bound reverse_row; unfold reverse_tgt in *; halves (n + 1); lia. Qed.

Theorem half_last_row_bound : forall r N d n, unique_max r N d -> 1 <= n <= N ->
  last_realized half_row half_tgt r n -> n <= 2 * d + 1.
Proof. last_bound half_row; unfold half_tgt in *; halves (n - 1); lia. Qed.

Theorem copy_last_row_tight : forall r N d, unique_max r N d -> 2 * d + 1 <= N ->
  last_realized copy_row copy_tgt r (2 * d + 1).
Proof.
  intros r N d Hu HN; unfold last_realized, copy_row, copy_tgt.
  halves (2 * d + 1); split; [lia|]. apply (deep_if_eq r N d (2 * d + 1)); first [assumption | lia].
Qed.

Theorem middle_last_row_tight : forall r N d, unique_max r N d -> 2 * d + 2 <= N ->
  last_realized middle_row middle_tgt r (2 * d + 2).
Proof.
  intros r N d Hu HN; unfold last_realized, middle_row, middle_tgt.
  halves (2 * d + 2); split; [lia|]. apply (deep_if_eq r N d (2 * d + 2)); first [assumption | lia].
Qed.

(* reverse needs 1 <= dstar here: at length 1 it has no row at all. *)
Theorem reverse_last_row_tight : forall r N d, unique_max r N d -> 1 <= d -> d + 1 <= N ->
  last_realized reverse_row reverse_tgt r (d + 1).
Proof.
  intros r N d Hu Hd1 HN; unfold last_realized, reverse_row, reverse_tgt.
  halves (d + 1 + 1); split; [lia|]. apply (deep_if_eq r N d (d + 1)); first [assumption | lia].
Qed.

Theorem half_last_row_tight : forall r N d, unique_max r N d -> 2 * d + 1 <= N ->
  last_realized half_row half_tgt r (2 * d + 1).
Proof.
  intros r N d Hu HN; unfold last_realized, half_row, half_tgt.
  halves (2 * d + 1 - 1); split; [lia|]. apply (deep_if_eq r N d (2 * d + 1)); first [assumption | lia].
Qed.

End Order.

Arguments unique_max {A} lt r N d.
Arguments realized {A} lt r i t.
Arguments all_deep {A} lt row tgt r d n.

(* ---- where it breaks: the slope r d = m d, m > 0, over R *)
Open Scope R_scope.

Definition slope (m : R) (k : nat) : R := m * INR k.

Theorem slope_no_maximizer : forall m, 0 < m ->
  ~ exists d, forall k, k <> d -> slope m k < slope m d.
Proof.
  intros m Hm [d Hd]. specialize (Hd (S d) (Nat.neq_succ_diag_l d)).
  unfold slope in Hd. rewrite S_INR in Hd. lra.
Qed.

Theorem slope_realizes_position0 : forall m, 0 < m -> forall n i, (i < n)%nat ->
  realized Rlt (slope m) i 0.
Proof.
  intros m Hm n i Hi. split; [lia|]. intros j Hj Hj0. unfold slope.
  apply Rmult_lt_compat_l; [exact Hm|]. apply lt_INR. lia.
Qed.

(* ---- negative controls, on concrete instances over nat *)
Close Scope R_scope.

Definition spike (k : nat) : nat := if Nat.eqb k 0 then 1 else 0.
Definition flat (k : nat) : nat := 0.
Definition ident (k : nat) : nat := k.
Definition dip (k : nat) : nat := match k with 0 => 1 | 1 => 0 | _ => k end.

(* A weak (tied) maximizer in place of the strict one: deep row 1 fails for t = i - dstar. *)
Theorem control_deep_weak_max :
  (forall k, k < 2 -> flat k <= flat 0) /\ ~ realized Nat.lt flat 1 (1 - 0).
Proof.
  split; [intros; unfold flat; lia|]. intros [_ H]. specialize (H 0 ltac:(lia) ltac:(lia)).
  unfold flat in H; lia.
Qed.

(* Depth dropped: a shallow row is realized for a target other than i - dstar. *)
Theorem control_deep_shallow :
  unique_max Nat.lt dip 3 2 /\ realized Nat.lt dip 1 1 /\ 1 <> 1 - 2.
Proof.
  split; [|split; [|lia]].
  - split; [lia|]. intros k Hk Hk2. destruct k as [|[|[|k]]]; simpl; lia.
  - split; [lia|]. intros j Hj Hj1. assert (j = 0) as -> by lia. simpl. lia.
Qed.

(* Depth dropped: two rows (both shallow) realize position:0. *)
Theorem control_position_depth :
  unique_max Nat.lt ident 3 2 /\ realized Nat.lt ident 0 0 /\ realized Nat.lt ident 1 0.
Proof.
  split; [|split].
  - split; [lia|]. intros k Hk Hk2. unfold ident; lia.
  - split; [lia|]. intros j Hj Hj0. lia.
  - split; [lia|]. intros j Hj Hj0. unfold ident; lia.
Qed.

(* A fixed-offset task (offset:dstar) in place of a growing one: every deep row is realized at a
   length beyond 2 dstar + 2, so the growing tasks' bounds are not vacuous. *)
Theorem control_growing_offset :
  unique_max Nat.lt spike 3 0 /\
  all_deep Nat.lt (fun n i => i < n) (fun n i => i - 0) spike 0 3 /\ ~ (3 <= 2 * 0 + 2).
Proof.
  split; [|split; [|lia]].
  - split; [lia|]. intros k Hk Hk0. unfold spike. destruct k; [lia|]. simpl; lia.
  - intros i _ Hi. split; [lia|]. intros j Hj Hji.
    replace (i - (i - 0)) with 0 by lia. unfold spike.
    destruct (i - j) eqn:E; [lia|]. simpl; lia.
Qed.

(* The slope's sign dropped (m = -1): row 1 does not realize position:0. *)
Theorem control_slope_sign : ~ realized Rlt (slope (-1)) 1 0.
Proof.
  intros [_ H]. specialize (H 1%nat ltac:(lia) ltac:(lia)). unfold slope in H. simpl in H. lra.
Qed.
