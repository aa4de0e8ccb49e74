(* Expressivity bound (static): the static-routing lemma of (a), and the one-row ceiling of
   middle of (b), for every length.

   Formalizes, from docs/definitions.md:
   - #static-routing: a head scores key j of row i of an input x (tokens x k, a function
     nat -> nat) by kap n i j + c * T (x i) (x j): a positional kernel plus a content term of
     weight c; positional-only means c = 0.  Its attention on row i is the softmax over the
     keys 0..i ([att]).  A hard-attention positional-only head reads the token at a route
     [route i <= i] that does not depend on x.
   - The input distribution is a finite list D of inputs (uniform over the list, so any
     distribution with rational weights through multiplicities); probabilities are counts
     over D divided by its length, so the bounds are stated on the counts.
     [beta D F i] is the largest count of inputs with x j = F x i over j = 0..i.

   Main results:
   - static_attention: a positional-only head's attention on every row is the same for all
     inputs (it depends on n alone);
   - static_routing_bound: a hard positional-only head is right on row i for at most beta
     inputs of D (accuracy at most beta_i);
   - positional_beta_full: a positional task (F x i = x (t i), t i <= i) has beta_i = |D|
     (beta = 1);
   - middle_one_row: (b, #class-ceiling) a free relative kernel r (any strictly ordered scores)
     realizes at most one row of middle (rows i >= h = n / 2, target h) at every length n.

   Negative controls: control_content_attention (c <> 0: two inputs with different
   attention), control_content_route (a route that reads the tokens beats beta on sorting two
   binary tokens: 4 of 4 against beta = 3), control_middle_free_position (h = n / 2 dropped:
   position:0 has two realized rows). *)

Require Import Arith Lia List Reals Lra.
Import ListNotations.

(* ---- (a) the attention of a positional-only head does not depend on the tokens *)
Open Scope R_scope.

Fixpoint sum (f : nat -> R) (p : nat) : R :=
  match p with O => 0 | S q => sum f q + f q end.

Definition score (kap : nat -> nat -> nat -> R) (c : R) (T : nat -> nat -> R) (n : nat) (x : nat -> nat)
  (i j : nat) : R := kap n i j + c * T (x i) (x j).

Definition att (s : nat -> nat -> R) (i j : nat) : R := exp (s i j) / sum (fun k => exp (s i k)) (S i).

Lemma sum_ext : forall f g p, (forall k, (k < p)%nat -> f k = g k) -> sum f p = sum g p.
Proof.
  intros f g p H; induction p as [|q IH]; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H q) by lia. reflexivity.
Qed.

Theorem static_attention : forall kap T n x y i j,
  att (score kap 0 T n x) i j = att (score kap 0 T n y) i j.
Proof.
  intros. unfold att, score. rewrite !Rmult_0_l, !Rplus_0_r.
  f_equal. apply sum_ext. intros k _. rewrite !Rmult_0_l, !Rplus_0_r. reflexivity.
Qed.

(* c = 1, kap = 0, T a b = [a = b]: on row 1, x = (0, 0) and y = (0, 1) give key 1 the
   attention 1/2 and e/(1+e). *)
Definition same (a b : nat) : R := if Nat.eqb a b then 1 else 0.
Definition x00 (k : nat) : nat := 0.
Definition x01 (k : nat) : nat := match k with 0 => 0 | _ => 1 end.

Theorem control_content_attention :
  att (score (fun _ _ _ => 0) 1 same 2 x00) 1 1 <> att (score (fun _ _ _ => 0) 1 same 2 x01) 1 1.
Proof.
  unfold att, score, same, x00, x01; simpl.
  replace (0 + 1 * 1) with 1 by ring. replace (0 + 1 * 0) with 0 by ring. rewrite exp_0.
  pose proof (exp_pos 1). assert (E1 : exp 0 < exp 1) by (apply exp_increasing; lra). rewrite exp_0 in E1.
  intros Heq. apply (Rmult_eq_compat_r ((0 + exp 1 + exp 1) * (0 + 1 + exp 1))) in Heq.
  field_simplify in Heq; [nra | lra | lra].
Qed.
Close Scope R_scope.

(* ---- the accuracy bound of a hard positional-only head, on counts *)
Definition count (P : (nat -> nat) -> bool) (D : list (nat -> nat)) : nat := length (filter P D).

Fixpoint maxc (g : nat -> nat) (i : nat) : nat :=
  match i with O => g O | S i' => Nat.max (maxc g i') (g (S i')) end.

Definition hit (F : (nat -> nat) -> nat -> nat) (i j : nat) (x : nat -> nat) : bool := Nat.eqb (x j) (F x i).

Definition beta (D : list (nat -> nat)) (F : (nat -> nat) -> nat -> nat) (i : nat) : nat :=
  maxc (fun j => count (hit F i j) D) i.

Lemma maxc_ge : forall g i j, j <= i -> g j <= maxc g i.
Proof.
  intros g i; induction i as [|i IH]; intros j Hj; simpl.
  - assert (j = 0) as -> by lia. lia.
  - destruct (Nat.eq_dec j (S i)) as [->|E]; [lia|]. specialize (IH j ltac:(lia)). lia.
Qed.

Lemma maxc_le : forall g i b, (forall j, g j <= b) -> maxc g i <= b.
Proof. intros g i b H; induction i as [|i IH]; simpl; [apply H | apply Nat.max_lub; auto]. Qed.

Theorem static_routing_bound : forall D F (route : nat -> nat) i, route i <= i ->
  count (fun x => Nat.eqb (x (route i)) (F x i)) D <= beta D F i.
Proof. intros D F route i H. unfold beta. apply (maxc_ge (fun j => count (hit F i j) D) i (route i) H). Qed.

Lemma count_all : forall (P : (nat -> nat) -> bool) D, (forall x, P x = true) -> count P D = length D.
Proof.
  intros P D H. unfold count. induction D as [|x D IH]; simpl; [reflexivity|]. rewrite H. simpl. lia.
Qed.

Lemma count_le_length : forall P D, count P D <= length D.
Proof.
  intros P D. unfold count. induction D as [|x D IH]; simpl; [lia|]. destruct (P x); simpl; lia.
Qed.

Theorem positional_beta_full : forall D (t : nat -> nat) i, t i <= i ->
  beta D (fun x k => x (t k)) i = length D.
Proof.
  intros D t i H. apply Nat.le_antisymm.
  - unfold beta. apply maxc_le. intros j. apply count_le_length.
  - rewrite <- (count_all (hit (fun x k => x (t k)) i (t i)) D) by (intros; apply Nat.eqb_refl).
    apply (maxc_ge (fun j => count (hit (fun x k => x (t k)) i j) D) i (t i) H).
Qed.

(* ---- the route may not read the tokens: sorting two binary tokens, row 1 outputs the larger *)
Definition seq2 (a b : nat) : nat -> nat := fun k => match k with 0 => a | _ => b end.
Definition binary2 : list (nat -> nat) := [seq2 0 0; seq2 0 1; seq2 1 0; seq2 1 1].
Definition sort_out (x : nat -> nat) (i : nat) : nat :=
  match i with 0 => Nat.min (x 0) (x 1) | _ => Nat.max (x 0) (x 1) end.

Theorem control_content_route :
  beta binary2 sort_out 1 = 3 /\
  count (fun x => Nat.eqb (x (if Nat.ltb (x 0) (x 1) then 1 else 0)) (sort_out x 1)) binary2 = 4.
Proof. split; reflexivity. Qed.

(* ---- (b) the class ceiling of middle for a free relative kernel: one row at every length *)
Section Middle.
Variable A : Type.
Variable lt : A -> A -> Prop.
Hypothesis lt_irrefl : forall a, ~ lt a a.
Hypothesis lt_trans : forall a b c, lt a b -> lt b c -> lt a c.

Definition realized_rel (r : nat -> A) (i t : nat) : Prop :=
  t <= i /\ forall j, j <= i -> j <> t -> lt (r (i - j)) (r (i - t)).

Theorem middle_one_row : forall (r : nat -> A) n i1 i2, 1 <= n ->
  n / 2 <= i1 < n -> n / 2 <= i2 < n ->
  realized_rel r i1 (n / 2) -> realized_rel r i2 (n / 2) -> i1 = i2.
Proof.
  intros r n i1 i2 Hn H1 H2 [_ R1] [_ R2].
  pose proof (Nat.div_mod n 2 ltac:(lia)). pose proof (Nat.mod_upper_bound n 2 ltac:(lia)).
  destruct (Nat.eq_dec i1 i2) as [E|E]; [exact E|exfalso].
  assert (A1 := R1 (i1 - (i2 - n / 2)) ltac:(lia) ltac:(lia)).
  assert (A2 := R2 (i2 - (i1 - n / 2)) ltac:(lia) ltac:(lia)).
  replace (i1 - (i1 - (i2 - n / 2))) with (i2 - n / 2) in A1 by lia.
  replace (i2 - (i2 - (i1 - n / 2))) with (i1 - n / 2) in A2 by lia.
  exact (lt_irrefl _ (lt_trans _ _ _ A1 A2)).
Qed.
End Middle.

(* h = n / 2 dropped (position:h with h free): r = identity, n = 3, h = 0 (position:0), rows 1 and
   2 both realized. *)
Theorem control_middle_free_position :
  realized_rel nat Nat.lt (fun k => k) 1 0 /\ realized_rel nat Nat.lt (fun k => k) 2 0 /\ 0 <> 3 / 2.
Proof.
  split; [|split; [|simpl; lia]]; (split; [lia|]); intros j Hj Hj0; lia.
Qed.
