(* E2 (content escapes): the exact margin condition under which a content head realizes match,
   row by row, at every length, and where a growing positional part overrides it.

   Formalizes, from docs/definitions.md:
   - #escape-content: a head scores key j of row i of tokens x (x : nat -> nat, tokens below V)
     by [score r beta x i j] = r (i - j) + beta [x i = x j], with a relative positional part
     r : nat -> R and a content weight beta; hard attention realizes row i for target t when t
     has the unique largest score among the keys 0..i ([realized]).
   - The task match: row i scores a sequence x when x i occurred before; its target is the
     latest earlier occurrence t ([latest x i t]), at offset i - t.  [match_row V r beta i]: row
     i is realized on every sequence over V tokens that it scores.
   - The conditions of the statement: (1) r 0 < r d for 1 <= d <= i ([self_below]), (2) r
     strictly decreasing on 1..i ([decreasing]), (3) beta > r 1 - r i.

   Main results:
   - match_exact: for i >= 2 and V >= 2 tokens, match_row V r beta i iff (1), (2) and (3);
   - match_one_sequence: on one sequence, row i is realized iff r (i - t) > r (i - j) for
     every other matching key j (the query itself included) and r (i - t) + beta > r (i - j)
     for every non-matching key j;
   - match_every_row: every row of every length iff (1) and (2) for all offsets and
     r 1 - beta is a lower bound of r on 1, 2, ... (beta >= r 1 - inf r);
   - first_condition_not_necessary: r d = 1 / d, r 0 = -1, beta = 1 realizes every row of
     every length although beta <= r 1 - r 0 = 2 (the first written condition
     beta > max r - min r is sufficient, not necessary);
   - slope_row_iff, slope_first_failing_row: with r d = - mu d (d >= 1), r 0 = rho, mu > 0,
     row i >= 2 is realized on every sequence iff mu (i - 1) < beta and rho < - mu i, that is
     iff i < min c1 c2 with c1 = 1 + ceil (beta / mu) and c2 = ceil (- rho / mu) (each given
     by its defining property over the naturals: k < c iff k < the bound).

   Negative controls: control_drop_margin (beta = r 1 - r 2, (1) and (2) kept: row 2 fails on
   the sequence 0 1 0), control_one_token (V = 1: row 2 is realized on every sequence with
   beta = 0 although (3) fails). *)

Require Import Arith Lia List Reals Lra.
Import ListNotations.
Open Scope R_scope.

Definition eqt (a b : nat) : R := if Nat.eqb a b then 1 else 0.

Definition score (r : nat -> R) (beta : R) (x : nat -> nat) (i j : nat) : R :=
  r (i - j)%nat + beta * eqt (x i) (x j).

Definition realized (r : nat -> R) (beta : R) (x : nat -> nat) (i t : nat) : Prop :=
  (t <= i)%nat /\ forall j, (j <= i)%nat -> j <> t -> score r beta x i j < score r beta x i t.

Definition latest (x : nat -> nat) (i t : nat) : Prop :=
  (t < i)%nat /\ x t = x i /\ forall j, (t < j < i)%nat -> x j <> x i.

Definition match_row (V : nat) (r : nat -> R) (beta : R) (i : nat) : Prop :=
  forall x t, (forall k, (x k < V)%nat) -> latest x i t -> realized r beta x i t.

Definition self_below (r : nat -> R) (i : nat) : Prop := forall d, (1 <= d <= i)%nat -> r 0%nat < r d.
Definition decreasing (r : nat -> R) (i : nat) : Prop :=
  forall u v, (1 <= u)%nat -> (u < v)%nat -> (v <= i)%nat -> r v < r u.

Lemma eqt_same : forall a, eqt a a = 1.
Proof. intros a. unfold eqt. rewrite Nat.eqb_refl. reflexivity. Qed.

Lemma eqt_diff : forall a b, a <> b -> eqt a b = 0.
Proof. intros a b H. unfold eqt. destruct (Nat.eqb_spec a b); [contradiction|reflexivity]. Qed.

Lemma decreasing_le : forall r i u v, decreasing r i -> (1 <= u)%nat -> (u <= v)%nat -> (v <= i)%nat -> r v <= r u.
Proof.
  intros r i u v H Hu Huv Hv. destruct (Nat.eq_dec u v) as [->|E]; [lra|].
  apply Rlt_le, H; lia.
Qed.

Theorem match_one_sequence : forall r beta x i t, latest x i t ->
  realized r beta x i t <->
  forall j, (j <= i)%nat -> j <> t ->
    (x j = x i -> r (i - j)%nat < r (i - t)%nat) /\ (x j <> x i -> r (i - j)%nat < r (i - t)%nat + beta).
Proof.
  intros r beta x i t [Hti [Hxt _]]. unfold realized, score. rewrite Hxt, eqt_same. split.
  - intros [_ H] j Hj Hjt. specialize (H j Hj Hjt). split; intros Hx.
    + rewrite <- Hx, eqt_same in H. lra.
    + rewrite eqt_diff in H by auto. lra.
  - intros H. split; [lia|]. intros j Hj Hjt. destruct (H j Hj Hjt) as [H1 H2].
    destruct (Nat.eq_dec (x i) (x j)) as [E|E].
    + rewrite <- E, eqt_same. specialize (H1 (eq_sym E)). lra.
    + rewrite eqt_diff by exact E. specialize (H2 (fun e => E (eq_sym e))). lra.
Qed.

(* sequences over two tokens: 0 at the positions of a list, 1 elsewhere *)
Definition mark (l : list nat) (k : nat) : nat := if existsb (Nat.eqb k) l then 0 else 1.

Lemma mark_in : forall l k, List.In k l -> mark l k = 0%nat.
Proof.
  intros l k H. unfold mark. replace (existsb (Nat.eqb k) l) with true; [reflexivity|].
  symmetry. apply List.existsb_exists. exists k. split; [exact H|apply Nat.eqb_refl].
Qed.

Lemma mark_out : forall l k, ~ List.In k l -> mark l k = 1%nat.
Proof.
  intros l k H. unfold mark. destruct (existsb (Nat.eqb k) l) eqn:E; [|reflexivity].
  apply List.existsb_exists in E. destruct E as [q [Hq Hk]]. apply Nat.eqb_eq in Hk. subst q. contradiction.
Qed.

Lemma mark_two : forall l k, (mark l k < 2)%nat.
Proof. intros l k. unfold mark. destruct (existsb (Nat.eqb k) l); lia. Qed.

Ltac not_in := let H := fresh in intro H; simpl in H; repeat (destruct H as [H|H]; [lia|]); destruct H.

Theorem match_exact : forall V r beta i, (2 <= V)%nat -> (2 <= i)%nat ->
  (match_row V r beta i <-> self_below r i /\ decreasing r i /\ r 1%nat - r i < beta).
Proof.
  intros V r beta i HV Hi. split.
  - intros M. split; [|split].
    + (* (1): x i = x (i - d), nothing else matches *)
      intros d Hd. set (x := mark [(i - d)%nat; i]).
      assert (L : latest x i (i - d)%nat).
      { split; [lia|]. split; [unfold x; rewrite !mark_in by (simpl; auto); reflexivity|].
        intros j Hj. unfold x. rewrite (mark_out _ j) by not_in. rewrite mark_in by (simpl; auto). lia. }
      destruct (M x (i - d)%nat ltac:(intros; unfold x; pose proof (mark_two [(i - d)%nat; i] k); lia) L)
        as [_ R].
      specialize (R i ltac:(lia) ltac:(lia)). unfold score in R.
      rewrite Nat.sub_diag, (proj1 (proj2 L)), !eqt_same in R. replace (i - (i - d))%nat with d in R by lia. lra.
    + (* (2): x i = x (i - u) = x (i - v) *)
      intros u v Hu Huv Hv. set (x := mark [(i - u)%nat; (i - v)%nat; i]).
      assert (L : latest x i (i - u)%nat).
      { split; [lia|]. split; [unfold x; rewrite !mark_in by (simpl; auto); reflexivity|].
        intros j Hj. unfold x. rewrite (mark_out _ j) by not_in. rewrite mark_in by (simpl; auto). lia. }
      destruct (M x (i - u)%nat ltac:(intros; unfold x; apply (Nat.lt_le_trans _ 2); [apply mark_two|exact HV]) L)
        as [_ R].
      specialize (R (i - v)%nat ltac:(lia) ltac:(lia)). unfold score in R.
      assert (Hxv : x (i - v)%nat = x i) by (unfold x; rewrite !mark_in by (simpl; auto); reflexivity).
      rewrite Hxv, (proj1 (proj2 L)), !eqt_same in R.
      replace (i - (i - v))%nat with v in R by lia. replace (i - (i - u))%nat with u in R by lia. lra.
    + (* (3): x i = x 0, every key between differs; the key i - 1 *)
      set (x := mark [0%nat; i]).
      assert (L : latest x i 0%nat).
      { split; [lia|]. split; [unfold x; rewrite !mark_in by (simpl; auto); reflexivity|].
        intros j Hj. unfold x. rewrite (mark_out _ j) by not_in. rewrite mark_in by (simpl; auto). lia. }
      destruct (M x 0%nat ltac:(intros; unfold x; apply (Nat.lt_le_trans _ 2); [apply mark_two|exact HV]) L)
        as [_ R].
      specialize (R (i - 1)%nat ltac:(lia) ltac:(lia)). unfold score in R.
      assert (Hx1 : x (i - 1)%nat = 1%nat) by (unfold x; apply mark_out; not_in).
      assert (Hxi : x i = 0%nat) by (unfold x; apply mark_in; simpl; auto).
      rewrite Hx1, Hxi, eqt_diff in R by lia. rewrite eqt_same in R.
      replace (i - (i - 1))%nat with 1%nat in R by lia. rewrite Nat.sub_0_r in R. lra.
  - intros [H1 [H2 H3]] x t _ L. assert (Hri : r i < r 1%nat) by (apply H2; lia).
    assert (Hb : 0 < beta) by lra.
    destruct L as [Hti [Hxt Hlat]]. apply (match_one_sequence r beta x i t (conj Hti (conj Hxt Hlat))).
    intros j Hj Hjt. split; intros Hx.
    + destruct (Nat.eq_dec j i) as [->|Eji].
      * rewrite Nat.sub_diag. apply H1. lia.
      * assert (j < t)%nat by (destruct (Nat.lt_ge_cases j t); [assumption|];
                               exfalso; apply (Hlat j); [lia|exact Hx]).
        apply H2; lia.
    + destruct (Nat.lt_ge_cases j t) as [Hjt'|Hjt'].
      * assert (r (i - j)%nat < r (i - t)%nat) by (apply H2; lia). lra.
      * assert (Hj' : (j < i)%nat) by (destruct (Nat.eq_dec j i) as [->|]; [contradiction|lia]).
        assert (r (i - j)%nat <= r 1%nat) by (apply (decreasing_le r i); [exact H2|lia|lia|lia]).
        assert (r i <= r (i - t)%nat) by (apply (decreasing_le r i); [exact H2|lia|lia|lia]). lra.
Qed.

Theorem match_every_row : forall V r beta, (2 <= V)%nat ->
  ((forall i, (2 <= i)%nat -> match_row V r beta i) <->
   (forall d, (1 <= d)%nat -> r 0%nat < r d) /\ (forall u v, (1 <= u)%nat -> (u < v)%nat -> r v < r u) /\
   (forall d, (1 <= d)%nat -> r 1%nat - beta <= r d)).
Proof.
  intros V r beta HV. split.
  - intros M. assert (E : forall i, (2 <= i)%nat -> self_below r i /\ decreasing r i /\ r 1%nat - r i < beta)
      by (intros i Hi; apply (match_exact V r beta i HV Hi), M, Hi).
    split; [|split].
    + intros d Hd. destruct (E (S d) ltac:(lia)) as [H1 _]. apply H1. lia.
    + intros u v Hu Huv. destruct (E v ltac:(lia)) as [_ [H2 _]]. apply H2; lia.
    + intros d Hd. destruct (E (S d) ltac:(lia)) as [_ [H2 H3]].
      assert (r (S d) < r d) by (apply H2; lia). lra.
  - intros [H1 [H2 H3]] i Hi. apply (match_exact V r beta i HV Hi). split; [|split].
    + intros d Hd. apply H1. lia.
    + intros u v Hu Huv Hv. apply H2; lia.
    + assert (r (S i) < r i) by (apply H2; lia). specialize (H3 (S i) ltac:(lia)). lra.
Qed.

(* ---- the first written condition beta > max r - min r = r 1 - r 0 is not necessary *)
Definition recip (d : nat) : R := match d with O => -1 | _ => / INR d end.

Theorem first_condition_not_necessary :
  1 <= recip 1%nat - recip 0%nat /\ forall V i, (2 <= V)%nat -> (2 <= i)%nat -> match_row V recip 1 i.
Proof.
  split; [change (1 <= / INR 1 - -1); change (INR 1) with 1; rewrite Rinv_1; lra|].
  intros V i HV Hi. apply (match_every_row V recip 1 HV); [|lia].
  split; [|split].
  - intros d Hd. destruct d as [|d]; [lia|]. change (-1 < / INR (S d)). assert (0 < / INR (S d)) by (apply Rinv_0_lt_compat, lt_0_INR; lia). lra.
  - intros u v Hu Huv. destruct u as [|u]; [lia|]. destruct v as [|v]; [lia|]. change (/ INR (S v) < / INR (S u)).
    apply Rinv_lt_contravar; [apply Rmult_lt_0_compat; apply lt_0_INR; lia|apply lt_INR; lia].
  - intros d Hd. destruct d as [|d]; [lia|]. change (/ INR 1 - 1 <= / INR (S d)). change (INR 1) with 1. rewrite Rinv_1.
    assert (0 < / INR (S d)) by (apply Rinv_0_lt_compat, lt_0_INR; lia). lra.
Qed.

(* ---- a growing positional part overrides beta: r d = - mu d (d >= 1), r 0 = rho *)
Definition slope (mu rho : R) (d : nat) : R := match d with O => rho | _ => - mu * INR d end.

Theorem slope_row_iff : forall mu rho beta i, 0 < mu -> (2 <= i)%nat ->
  (self_below (slope mu rho) i /\ decreasing (slope mu rho) i /\ slope mu rho 1%nat - slope mu rho i < beta <->
   mu * (INR i - 1) < beta /\ rho < - mu * INR i).
Proof.
  intros mu rho beta i Hmu Hi. destruct i as [|i']; [lia|]. set (i := S i').
  assert (Si : slope mu rho i = - mu * INR i) by reflexivity. simpl (slope mu rho 1%nat). change (INR 1) with 1.
  rewrite Si. split.
  - intros [H1 [_ H3]]. split; [lra|]. specialize (H1 i ltac:(lia)). rewrite Si in H1. exact H1.
  - intros [H3 H1]. split; [|split].
    + intros d Hd. destruct d as [|d]; [lia|]. simpl (slope mu rho 0%nat). unfold slope.
      assert (INR (S d) <= INR i) by (apply le_INR; lia). nra.
    + intros u v Hu Huv Hv. destruct u as [|u]; [lia|]. destruct v as [|v]; [lia|]. unfold slope.
      assert (INR (S u) < INR (S v)) by (apply lt_INR; lia). nra.
    + lra.
Qed.

Theorem slope_first_failing_row : forall V mu rho beta (c1 c2 : nat), (2 <= V)%nat -> 0 < mu ->
  (forall k : nat, INR k < 1 + beta / mu <-> (k < c1)%nat) ->
  (forall k : nat, INR k < - rho / mu <-> (k < c2)%nat) ->
  forall i, (2 <= i)%nat -> (match_row V (slope mu rho) beta i <-> (i < Nat.min c1 c2)%nat).
Proof.
  intros V mu rho beta c1 c2 HV Hmu C1 C2 i Hi.
  rewrite (match_exact V (slope mu rho) beta i HV Hi), (slope_row_iff mu rho beta i Hmu Hi).
  assert (E1 : mu * (INR i - 1) < beta <-> INR i < 1 + beta / mu).
  { assert (Q : beta = (beta / mu) * mu) by (field; lra). split; intros H.
    - rewrite Q in H. nra.
    - rewrite Q. nra. }
  assert (E2 : rho < - mu * INR i <-> INR i < - rho / mu).
  { assert (Q : rho = - (- rho / mu) * mu) by (field; lra). split; intros H.
    - rewrite Q in H. nra.
    - rewrite Q. nra. }
  rewrite E1, E2, C1, C2. lia.
Qed.

(* ---- negative controls *)
Definition r_tie (d : nat) : R := match d with O => -1 | 1 => 1 | _ => 0 end.
Definition x_010 (k : nat) : nat := match k with 1 => 1 | _ => 0 end.

(* (3) dropped, (1), (2) and beta >= 0 kept: beta = r 1 - r 2 = 1, row 2 of 0 1 0 ties *)
Theorem control_drop_margin :
  self_below r_tie 2 /\ decreasing r_tie 2 /\ 0 <= 1 /\ r_tie 1%nat - r_tie 2%nat = 1 /\
  latest x_010 2 0 /\ ~ realized r_tie 1 x_010 2 0.
Proof.
  split; [|split; [|split; [lra|split; [simpl; lra|split]]]].
  - intros d Hd. destruct d as [|[|[|d]]]; simpl; lra || lia.
  - intros u v Hu Huv Hv. destruct u as [|[|u]]; destruct v as [|[|[|v]]]; simpl; lra || lia.
  - split; [lia|split; [reflexivity|]]. intros j Hj. destruct j as [|[|j]]; [lia|discriminate|lia].
  - intros [_ R]. specialize (R 1%nat ltac:(lia) ltac:(lia)). unfold score, eqt in R. simpl in R. lra.
Qed.

(* V >= 2 dropped: with one token every key matches, and beta = 0 realizes row 2 although
   r 1 - r 2 = 1 > beta *)
Theorem control_one_token : match_row 1 r_tie 0 2 /\ ~ (r_tie 1%nat - r_tie 2%nat < 0).
Proof.
  split; [|simpl; lra].
  intros x t Hx [Ht [_ Hlat]].
  assert (X : forall k, x k = 0%nat) by (intros k; specialize (Hx k); lia).
  assert (t = 1%nat) as ->.
  { destruct (Nat.eq_dec t 1) as [E|E]; [exact E|exfalso]. apply (Hlat 1%nat); [lia|rewrite !X; reflexivity]. }
  split; [lia|]. intros j Hj Hj1. unfold score. rewrite !X, eqt_same.
  destruct j as [|[|[|j]]]; simpl; lra || lia.
Qed.
