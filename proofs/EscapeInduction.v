(* E3 (the induction circuit): the row condition of the two-layer circuit from layer 1's routes,
   and alpha_L(Phi, offset:1) = 1 implies alpha_L^ind = 1, for every length n = 2 m + 1.

   Formalizes, from docs/definitions.md:
   - #escape-induction: the token layout of induction ([layout m x]: position 0 holds a BOS token
     equal to no other, positions 1..m distinct tokens, x (m + k) = x k for k = 1..m); the rows
     i in [m + 1, 2 m - 1], s = i - m, target t = s + 1.
   - Layer 1 (positional-only, theta* (Phi, offset:1; L0) under T_L^sigma) is given by its row
     outcomes: [routes j], the list of the maximizers of row j (one key when the row has a
     unique maximizer, all tied keys otherwise), causal (every route of row j is <= j) and
     never empty.  A choice of routes picks one of them on every row ([choice]).
   - Layer 2 scores key j of row i by beta [x i = x (route j)] with beta > 0 (over Q);
     [realized2] is the unique maximizer; [every_choice]: realized for every choice of the
     tied routes, as the statement counts a tied row.
   - offset:1 is realized on layer 1's row j when its only maximizer is j - 1 ([offset1_row]);
     alpha_L(Phi, offset:1) = 1 is offset1_row on every row 1..2 m.
   - alpha_L^ind is the fraction of rows i in [m + 1, 2 m - 1] with every_choice; its
     numerator is the count of [row_b] (decided from the routes alone).

   Main results:
   - circuit_fixed: for one choice of routes, row i is realized iff route t = s, route i <> i
     and no other key j <= i routes to s (keys j < s cannot: routes are causal);
   - circuit_row_iff: the same for every choice of the tied routes, read off the lists;
   - row_b_realized: the boolean row condition decides it (so alpha_L^ind is a function of
     layer 1's row outcomes alone);
   - alpha_one_implies_induction: alpha_L(Phi, offset:1) = 1 implies every row of induction is
     realized, at every length n = 2 m + 1 (m >= 2);
   - induction_needs_offset1: a realized row i needs offset:1 realized on layer 1's row t;
   - induction_count_bound: the realized rows number at most the rows t in [2, m] where
     offset:1 is realized (alpha_L^ind <= that count / (m - 1)).

   Negative controls: control_weak_alpha (alpha = 1 weakened to offset:1 realized on row t
   only: a later key routes to s and row 3 of n = 5 fails), control_no_bos (BOS equal to the
   token x 1: offset:1 realized on every row, row 3 of n = 5 fails). *)

Require Import Arith Lia List Bool QArith Lqa.
Import ListNotations.

Definition layout (m : nat) (x : nat -> nat) : Prop :=
  (forall k, (1 <= k <= 2 * m)%nat -> x k <> x 0%nat) /\
  (forall a b, (1 <= a <= m)%nat -> (1 <= b <= m)%nat -> x a = x b -> a = b) /\
  (forall k, (1 <= k <= m)%nat -> x (m + k)%nat = x k).

Lemma same_token : forall m x s k, layout m x -> (1 <= s <= m)%nat -> (k <= 2 * m)%nat ->
  (x k = x (m + s)%nat <-> k = s \/ k = (m + s)%nat).
Proof.
  intros m x s k [B [D R]] Hs Hk. rewrite (R s Hs). split.
  - intros E. destruct (Nat.eq_dec k 0) as [->|K0].
    + exfalso. exact (B s ltac:(lia) (eq_sym E)).
    + destruct (Nat.le_gt_cases k m) as [Km|Km].
      * left. apply D; lia || exact E.
      * right. assert (Ek : x k = x (k - m)%nat) by (rewrite <- (R (k - m)%nat) by lia; f_equal; lia).
        rewrite Ek in E. assert ((k - m)%nat = s) by (apply D; lia || exact E). lia.
  - intros [->| ->]; [reflexivity|apply R; exact Hs].
Qed.

Definition sc (beta : Q) (x : nat -> nat) (route : nat -> nat) (i j : nat) : Q :=
  if Nat.eqb (x i) (x (route j)) then beta else 0.

Definition realized2 (beta : Q) (x : nat -> nat) (route : nat -> nat) (i t : nat) : Prop :=
  (t <= i)%nat /\ forall j, (j <= i)%nat -> j <> t -> sc beta x route i j < sc beta x route i t.

Lemma realized2_iff : forall beta x route i t, 0 < beta -> (t <= i)%nat -> t <> 0%nat ->
  (realized2 beta x route i t <->
   x i = x (route t) /\ forall j, (j <= i)%nat -> j <> t -> x i <> x (route j)).
Proof.
  intros beta x route i t Hb Hti Ht0. unfold realized2, sc. split.
  - intros [_ H]. assert (Et : x i = x (route t)).
    { specialize (H 0%nat ltac:(lia) ltac:(lia)).
      destruct (Nat.eqb_spec (x i) (x (route t))) as [E|E]; [exact E|].
      destruct (Nat.eqb (x i) (x (route 0%nat))); lra. }
    split; [exact Et|]. intros j Hj Hjt E. specialize (H j Hj Hjt).
    rewrite (proj2 (Nat.eqb_eq _ _) E), (proj2 (Nat.eqb_eq _ _) Et) in H. lra.
  - intros [Et H]. split; [exact Hti|]. intros j Hj Hjt.
    rewrite (proj2 (Nat.eqb_eq _ _) Et). destruct (Nat.eqb_spec (x i) (x (route j))) as [E|E].
    + exfalso. exact (H j Hj Hjt E).
    + exact Hb.
Qed.

Theorem circuit_fixed : forall m x route beta i, (2 <= m)%nat -> layout m x ->
  (m + 1 <= i <= 2 * m - 1)%nat -> 0 < beta -> (forall j, (j <= i)%nat -> (route j <= j)%nat) ->
  (realized2 beta x route i (i - m + 1) <->
   route (i - m + 1)%nat = (i - m)%nat /\ route i <> i /\
   forall j, (j <= i)%nat -> j <> (i - m + 1)%nat -> route j <> (i - m)%nat).
Proof.
  intros m x route beta i Hm L Hi Hb C.
  rewrite (realized2_iff beta x route i (i - m + 1) Hb ltac:(lia) ltac:(lia)).
  assert (Ei : i = (m + (i - m))%nat) by lia.
  assert (T : forall k, (k <= i)%nat -> (x k = x i <-> k = (i - m)%nat \/ k = i)).
  { intros k Hk. rewrite Ei at 1 3. apply same_token; [exact L|lia|lia]. }
  assert (Ct := C (i - m + 1)%nat ltac:(lia)).
  split.
  - intros [Et H]. split; [|split].
    + destruct (proj1 (T (route (i - m + 1)%nat) ltac:(lia)) (eq_sym Et)); lia.
    + intros E. apply (H i ltac:(lia) ltac:(lia)). rewrite E. reflexivity.
    + intros j Hj Hjt E. apply (H j Hj Hjt). symmetry. apply (T (route j)); [specialize (C j Hj); lia|left; exact E].
  - intros [Ha [Hb' Hc]]. split.
    + symmetry. apply (T (route (i - m + 1)%nat)); [lia|left; exact Ha].
    + intros j Hj Hjt E. assert (Cj := C j Hj).
      destruct (proj1 (T (route j) ltac:(lia)) (eq_sym E)) as [E'|E'].
      * exact (Hc j Hj Hjt E').
      * assert (j = i) as -> by lia. exact (Hb' E').
Qed.

Definition choice (routes : nat -> list nat) (route : nat -> nat) : Prop := forall j, In (route j) (routes j).

Definition every_choice (beta : Q) (x : nat -> nat) (routes : nat -> list nat) (i t : nat) : Prop :=
  forall route, choice routes route -> realized2 beta x route i t.

Definition pick (routes : nat -> list nat) (j : nat) : nat := hd 0%nat (routes j).

Lemma pick_in : forall routes j, routes j <> [] -> In (pick routes j) (routes j).
Proof. intros routes j H. unfold pick. destruct (routes j); [contradiction|left; reflexivity]. Qed.

Definition override (routes : nat -> list nat) (j0 k0 : nat) : nat -> nat :=
  fun j => if Nat.eqb j j0 then k0 else pick routes j.

Lemma override_choice : forall routes j0 k0, (forall j, routes j <> []) -> In k0 (routes j0) ->
  choice routes (override routes j0 k0).
Proof.
  intros routes j0 k0 N H j. unfold override. destruct (Nat.eqb_spec j j0) as [->|E]; [exact H|apply pick_in, N].
Qed.

Lemma override_at : forall routes j0 k0, override routes j0 k0 j0 = k0.
Proof. intros. unfold override. rewrite Nat.eqb_refl. reflexivity. Qed.

Theorem circuit_row_iff : forall m x routes beta i, (2 <= m)%nat -> layout m x ->
  (m + 1 <= i <= 2 * m - 1)%nat -> 0 < beta ->
  (forall j k, In k (routes j) -> (k <= j)%nat) -> (forall j, routes j <> []) ->
  (every_choice beta x routes i (i - m + 1) <->
   (forall k, In k (routes (i - m + 1)%nat) -> k = (i - m)%nat) /\ ~ In i (routes i) /\
   (forall j k, (j <= i)%nat -> j <> (i - m + 1)%nat -> In k (routes j) -> k <> (i - m)%nat)).
Proof.
  intros m x routes beta i Hm L Hi Hb C N.
  assert (F : forall route, choice routes route -> forall j, (j <= i)%nat -> (route j <= j)%nat)
    by (intros route Ch j _; apply (C j), Ch).
  split.
  - intros E. split; [|split].
    + intros k Hk. set (route := override routes (i - m + 1)%nat k).
      pose proof (proj1 (circuit_fixed m x route beta i Hm L Hi Hb (F route (override_choice routes _ k N Hk)))
                    (E route (override_choice routes _ k N Hk))) as [Ha _].
      unfold route in Ha. rewrite override_at in Ha. exact Ha.
    + intros Hk. set (route := override routes i i).
      pose proof (proj1 (circuit_fixed m x route beta i Hm L Hi Hb (F route (override_choice routes _ i N Hk)))
                    (E route (override_choice routes _ i N Hk))) as [_ [Hb' _]].
      unfold route in Hb'. rewrite override_at in Hb'. exact (Hb' eq_refl).
    + intros j k Hj Hjt Hk. set (route := override routes j k).
      pose proof (proj1 (circuit_fixed m x route beta i Hm L Hi Hb (F route (override_choice routes _ k N Hk)))
                    (E route (override_choice routes _ k N Hk))) as [_ [_ Hc]].
      specialize (Hc j Hj Hjt). unfold route in Hc. rewrite override_at in Hc. exact Hc.
  - intros [Ha [Hb' Hc]] route Ch. apply (circuit_fixed m x route beta i Hm L Hi Hb (F route Ch)).
    split; [apply Ha, Ch|split].
    + intros E. apply Hb'. assert (Hr := Ch i). rewrite E in Hr. exact Hr.
    + intros j Hj Hjt. apply (Hc j); [exact Hj|exact Hjt|apply Ch].
Qed.

(* ---- the row condition decided from the routes, and alpha_L(offset:1) = 1 *)
Definition row_b (routes : nat -> list nat) (m i : nat) : bool :=
  forallb (Nat.eqb (i - m)) (routes (i - m + 1)%nat) && negb (existsb (Nat.eqb i) (routes i)) &&
  forallb (fun j => Nat.eqb j (i - m + 1) || forallb (fun k => negb (Nat.eqb k (i - m))) (routes j)) (seq 0 (i + 1)).

Lemma row_b_spec : forall routes m i,
  row_b routes m i = true <->
  (forall k, In k (routes (i - m + 1)%nat) -> k = (i - m)%nat) /\ ~ In i (routes i) /\
  (forall j k, (j <= i)%nat -> j <> (i - m + 1)%nat -> In k (routes j) -> k <> (i - m)%nat).
Proof.
  intros routes m i. unfold row_b. rewrite !andb_true_iff, negb_true_iff, !forallb_forall.
  split.
  - intros [[Ha Hb] Hc]. split; [|split].
    + intros k Hk. symmetry. apply Nat.eqb_eq, Ha, Hk.
    + intros Hk. assert (existsb (Nat.eqb i) (routes i) = true) by (apply existsb_exists; exists i; split;
        [exact Hk|apply Nat.eqb_refl]). congruence.
    + intros j k Hj Hjt Hk E. specialize (Hc j ltac:(apply in_seq; lia)).
      apply orb_true_iff in Hc. destruct Hc as [Hc|Hc]; [apply Nat.eqb_eq in Hc; contradiction|].
      rewrite forallb_forall in Hc. specialize (Hc k Hk). rewrite E, Nat.eqb_refl in Hc. discriminate.
  - intros [Ha [Hb Hc]]. split; [split|].
    + intros k Hk. apply Nat.eqb_eq. symmetry. apply Ha, Hk.
    + destruct (existsb (Nat.eqb i) (routes i)) eqn:E; [|reflexivity].
      apply existsb_exists in E. destruct E as [k [Hk Hik]]. apply Nat.eqb_eq in Hik. subst k. contradiction.
    + intros j Hj. apply in_seq in Hj. apply orb_true_iff.
      destruct (Nat.eqb_spec j (i - m + 1)) as [E|E]; [left; reflexivity|right].
      apply forallb_forall. intros k Hk. apply negb_true_iff, Nat.eqb_neq. apply (Hc j); [lia|exact E|exact Hk].
Qed.

Theorem row_b_realized : forall m x routes beta i, (2 <= m)%nat -> layout m x ->
  (m + 1 <= i <= 2 * m - 1)%nat -> 0 < beta ->
  (forall j k, In k (routes j) -> (k <= j)%nat) -> (forall j, routes j <> []) ->
  (row_b routes m i = true <-> every_choice beta x routes i (i - m + 1)).
Proof. intros. rewrite row_b_spec. symmetry. apply circuit_row_iff; assumption. Qed.

Definition offset1_row (routes : nat -> list nat) (j : nat) : Prop := forall k, In k (routes j) -> k = (j - 1)%nat.

Theorem alpha_one_implies_induction : forall m x routes beta, (2 <= m)%nat -> layout m x -> 0 < beta ->
  (forall j k, In k (routes j) -> (k <= j)%nat) -> (forall j, routes j <> []) ->
  (forall j, (1 <= j <= 2 * m)%nat -> offset1_row routes j) ->
  forall i, (m + 1 <= i <= 2 * m - 1)%nat -> every_choice beta x routes i (i - m + 1).
Proof.
  intros m x routes beta Hm L Hb C N O i Hi. apply (circuit_row_iff m x routes beta i Hm L Hi Hb C N).
  split; [|split].
  - intros k Hk. rewrite (O (i - m + 1)%nat ltac:(lia) k Hk). lia.
  - intros Hk. specialize (O i ltac:(lia) i Hk). lia.
  - intros j k Hj Hjt Hk E. destruct (Nat.eq_dec j 0) as [->|J0].
    + specialize (C 0%nat k Hk). lia.
    + specialize (O j ltac:(lia) k Hk). lia.
Qed.

Theorem induction_needs_offset1 : forall m x routes beta i, (2 <= m)%nat -> layout m x ->
  (m + 1 <= i <= 2 * m - 1)%nat -> 0 < beta ->
  (forall j k, In k (routes j) -> (k <= j)%nat) -> (forall j, routes j <> []) ->
  every_choice beta x routes i (i - m + 1) -> offset1_row routes (i - m + 1).
Proof.
  intros m x routes beta i Hm L Hi Hb C N E k Hk.
  destruct (proj1 (circuit_row_iff m x routes beta i Hm L Hi Hb C N) E) as [Ha _].
  rewrite (Ha k Hk). lia.
Qed.

Definition offset1_b (routes : nat -> list nat) (j : nat) : bool := forallb (Nat.eqb (j - 1)) (routes j).

Lemma filter_map_le : forall (f h : nat -> bool) (g : nat -> nat) l,
  (forall a, In a l -> f (g a) = true -> h a = true) -> (length (filter f (map g l)) <= length (filter h l))%nat.
Proof.
  intros f h g l; induction l as [|a l IH]; intros H; simpl; [lia|].
  assert (IH' := IH (fun b Hb => H b (or_intror Hb))).
  destruct (f (g a)) eqn:E.
  - rewrite (H a (or_introl eq_refl) E). simpl. lia.
  - destruct (h a); simpl; lia.
Qed.

Lemma seq_shift_by : forall c a len, seq (a + c) len = map (fun t => (t + c)%nat) (seq a len).
Proof.
  intros c a len; revert a; induction len as [|len IH]; intros a; simpl; [reflexivity|].
  f_equal. rewrite <- IH. f_equal.
Qed.

Theorem induction_count_bound : forall routes m, (2 <= m)%nat ->
  (length (filter (row_b routes m) (seq (m + 1) (m - 1))) <= length (filter (offset1_b routes) (seq 2 (m - 1))))%nat.
Proof.
  intros routes m Hm. replace (m + 1)%nat with (2 + (m - 1))%nat by lia. rewrite seq_shift_by.
  apply filter_map_le. intros t Ht R. apply in_seq in Ht.
  apply row_b_spec in R. destruct R as [Ha _].
  replace (t + (m - 1) - m + 1)%nat with t in Ha by lia.
  unfold offset1_b. apply forallb_forall. intros k Hk. apply Nat.eqb_eq. rewrite (Ha k Hk). lia.
Qed.

Local Open Scope nat_scope.

(* ---- negative controls, at m = 2 (n = 5), row i = 3: s = 1, t = 2 *)
Definition x5 (k : nat) : nat := match k with 0 => 0 | 1 => 1 | 2 => 2 | 3 => 1 | _ => 2 end.
Definition weak_routes (j : nat) : list nat := match j with 0 => [0%nat] | 1 => [0%nat] | 2 => [1%nat] | 3 => [1%nat] | _ => [3%nat] end.

Lemma layout_x5 : layout 2 x5.
Proof.
  split; [|split].
  - intros k Hk. destruct k as [|[|[|[|[|k]]]]]; simpl; lia || discriminate.
  - intros a b Ha Hb E. destruct a as [|[|[|a]]]; destruct b as [|[|[|b]]]; simpl in E; lia || discriminate.
  - intros k Hk. destruct k as [|[|[|k]]]; simpl; lia || reflexivity.
Qed.

(* alpha = 1 weakened to offset:1 realized on row t = 2 only: row 3 also routes to s = 1 *)
Theorem control_weak_alpha :
  layout 2 x5 /\ offset1_row weak_routes 2 /\ (forall j k, In k (weak_routes j) -> (k <= j)%nat) /\
  ~ every_choice 1%Q x5 weak_routes 3 2.
Proof.
  split; [exact layout_x5|split; [|split]].
  - intros k [<-|[]]. reflexivity.
  - intros j k Hk. destruct j as [|[|[|[|j]]]]; simpl in Hk; destruct Hk as [<-|[]]; lia.
  - intros E. destruct (E (pick weak_routes)) as [_ R].
    + intros j. apply pick_in. destruct j as [|[|[|[|j]]]]; discriminate.
    + specialize (R 3%nat ltac:(lia) ltac:(lia)). unfold sc in R. simpl in R. lra.
Qed.

(* BOS dropped (x 0 = x 1), offset:1 realized on every row: keys 0 and 1 read x 0 = x 3 *)
Definition x5_nobos (k : nat) : nat := match k with 0 => 1 | _ => x5 k end.
Definition offset1_routes (j : nat) : list nat := [(j - 1)%nat].

Theorem control_no_bos :
  (forall j, (1 <= j <= 4)%nat -> offset1_row offset1_routes j) /\ x5_nobos 0 = x5_nobos 1 /\
  ~ every_choice 1%Q x5_nobos offset1_routes 3 2.
Proof.
  split; [intros j Hj k [<-|[]]; reflexivity|split; [reflexivity|]].
  intros E. destruct (E (fun j => (j - 1)%nat)) as [_ R].
  - intros j. left. reflexivity.
  - specialize (R 1%nat ltac:(lia) ltac:(lia)). unfold sc in R. simpl in R. lra.
Qed.
