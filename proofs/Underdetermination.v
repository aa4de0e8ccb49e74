(* Underdetermination (learned absolute PEs), parts (a) and (b), for every length.

   Formalizes, from docs/definitions.md:
   - #learned-absolute: learned:d scores key j of row i by E_i^T W E_j; here [bil (E i) (E j)]
     for any type Vec of position vectors with a zero z and any score function bil with
     bil z y = x0 for every y (every bilinear form W has z^T W y = 0), with scores in any type X with an
     irreflexive (and, where a target must be unique, transitive) relation lt.
   - #realization-and-margin: [realized lt k i t].
   - #underdetermination: the trained block (W, E below L0); the completions
     [zero_completion] (E_j = z for j >= L0) and [last_completion] (E_j = E_(L0-1) for j >= L0).
   - #underdetermination-a: the rows below L0 keep or change their targets (copy).

   Main results:
   - zero_ties_new_rows: under the zero completion no row i >= L0 is realized, for any target;
   - zero_keeps_old_rows: a row below L0 is realized at L iff it was at L0 (same target);
   - zero_completion_rows: for a task whose rows below L0 keep their targets and a block that
     realizes it at L0, the realized rows of R_L are exactly those below L0 (so
     alpha_L = |R_L n [0, L0)| / |R_L|);
   - realized_target_unique and copy_zero_completion: for copy with L0 <= L and
     L / 2 <> L0 / 2, no row of R_L is realized under the zero completion;
   - reverse_zero_completion: for reverse (rows from (n + 1) / 2, target n - 1 - i) with
     L0 < L, no row of R_L is realized under the zero completion (alpha_L = 0);
   - last_completion_position: for position:p with p <= L0 - 2 the last completion realizes
     every row of every length (alpha_L = 1);
   - not_a_function: one trained block with both outcomes on a row (alpha is not a function
     of the PE and the task);
   - zero_form: a score additive in its first argument (every bilinear E_i^T W E_j) is 0 at
     the zero vector, which is the hypothesis bil z y = x0 above with x0 = 0.

   Negative controls: control_position_last_key (p = L0 - 1: the last completion ties),
   control_copy_moves (copy at L0 = 4, L = 6: a row below L0 of R_L fails, so the formula of
   (a) needs the targets kept), control_zero_form_additivity (additivity dropped),
   control_reverse_same_length (L0 < L dropped: the row of reverse is kept). *)

Require Import Arith Lia.

Section Learned.
Variables (X Vec : Type) (lt : X -> X -> Prop) (z : Vec) (x0 : X) (bil : Vec -> Vec -> X).
Hypothesis lt_irrefl : forall a, ~ lt a a.
Hypothesis bil_z_l : forall y, bil z y = x0.

Definition realized (k : nat -> nat -> X) (i t : nat) : Prop :=
  t <= i /\ forall j, j <= i -> j <> t -> lt (k i j) (k i t).

Definition learned (E : nat -> Vec) : nat -> nat -> X := fun i j => bil (E i) (E j).

Definition zero_completion (E : nat -> Vec) (L0 : nat) : nat -> Vec :=
  fun j => if j <? L0 then E j else z.

Definition last_completion (E : nat -> Vec) (L0 : nat) : nat -> Vec :=
  fun j => if j <? L0 then E j else E (L0 - 1).

Theorem zero_ties_new_rows : forall E L0 i t, 1 <= L0 -> L0 <= i ->
  ~ realized (learned (zero_completion E L0)) i t.
Proof.
  intros E L0 i t HL0 Hi [Ht H]. unfold learned, zero_completion in H.
  assert (Ei : (i <? L0) = false) by (apply Nat.ltb_ge; lia).
  destruct (Nat.eq_dec t i) as [->|E'].
  - specialize (H (i - 1) ltac:(lia) ltac:(lia)). rewrite Ei, !bil_z_l in H. exact (lt_irrefl _ H).
  - specialize (H i ltac:(lia) ltac:(lia)). rewrite Ei, !bil_z_l in H. exact (lt_irrefl _ H).
Qed.

Theorem zero_keeps_old_rows : forall E L0 i t, i < L0 ->
  (realized (learned (zero_completion E L0)) i t <-> realized (learned E) i t).
Proof.
  intros E L0 i t Hi. unfold realized, learned, zero_completion.
  assert (Hj : forall j, j <= i -> (j <? L0) = true) by (intros; apply Nat.ltb_lt; lia).
  rewrite (Hj i) by lia. split; intros [Ht H]; split; auto; intros j Hji Hjt.
  - specialize (H j Hji Hjt). rewrite !Hj in H by lia. exact H.
  - rewrite !Hj by lia. auto.
Qed.

Theorem zero_completion_rows : forall E L0 L (rows : nat -> nat -> Prop) tgt,
  1 <= L0 ->
  (forall i, i < L0 -> rows L i -> rows L0 i /\ tgt L i = tgt L0 i) ->
  (forall i, i < L0 -> rows L0 i -> realized (learned E) i (tgt L0 i)) ->
  forall i, i < L -> rows L i -> (realized (learned (zero_completion E L0)) i (tgt L i) <-> i < L0).
Proof.
  intros E L0 L rows tgt HL0 Hkeep Htrained i Hi Hr. split.
  - intros R. destruct (Nat.lt_ge_cases i L0) as [H|H]; [exact H|].
    exfalso. exact (zero_ties_new_rows E L0 i (tgt L i) HL0 H R).
  - intros H. apply zero_keeps_old_rows; [exact H|]. destruct (Hkeep i H Hr) as [Hr0 ->].
    apply Htrained; assumption.
Qed.

Hypothesis lt_trans : forall a b c, lt a b -> lt b c -> lt a c.

Theorem realized_target_unique : forall k i t t', realized k i t -> realized k i t' -> t = t'.
Proof.
  intros k i t t' [Ht H] [Ht' H']. destruct (Nat.eq_dec t t') as [E|E]; [exact E|exfalso].
  assert (A1 := H t' Ht' (not_eq_sym E)). assert (A2 := H' t Ht E).
  exact (lt_irrefl _ (lt_trans _ _ _ A1 A2)).
Qed.

Theorem copy_zero_completion : forall E L0 L i, 1 <= L0 -> L0 <= L -> L / 2 <> L0 / 2 ->
  (forall i, L0 / 2 <= i < L0 -> realized (learned E) i (i - L0 / 2)) ->
  L / 2 <= i < L -> ~ realized (learned (zero_completion E L0)) i (i - L / 2).
Proof.
  intros E L0 L i HL0 HL Hh Htrained [Hh' Hi] R.
  assert (Hmono : L0 / 2 <= L / 2) by (apply Nat.div_le_mono; lia).
  destruct (Nat.lt_ge_cases i L0) as [H|H].
  - apply zero_keeps_old_rows in R; [|exact H].
    assert (E' := realized_target_unique _ i _ _ R (Htrained i ltac:(lia))). lia.
  - exact (zero_ties_new_rows E L0 i _ HL0 H R).
Qed.

Theorem reverse_zero_completion : forall E L0 L i, 1 <= L0 -> L0 < L ->
  (forall i, (L0 + 1) / 2 <= i < L0 -> realized (learned E) i (L0 - 1 - i)) ->
  (L + 1) / 2 <= i < L -> ~ realized (learned (zero_completion E L0)) i (L - 1 - i).
Proof.
  intros E L0 L i HL0 HL Htrained [Hh Hi] R.
  assert (Hmono : (L0 + 1) / 2 <= (L + 1) / 2) by (apply Nat.div_le_mono; lia).
  destruct (Nat.lt_ge_cases i L0) as [H|H].
  - apply zero_keeps_old_rows in R; [|exact H].
    assert (E' := realized_target_unique _ i _ _ R (Htrained i ltac:(lia))). lia.
  - exact (zero_ties_new_rows E L0 i _ HL0 H R).
Qed.

End Learned.

Section Last.
Variables (X Vec : Type) (lt : X -> X -> Prop) (bil : Vec -> Vec -> X).

Theorem last_completion_position : forall E L0 p,
  p + 2 <= L0 ->
  (forall i, p <= i < L0 -> realized X lt (learned X Vec bil E) i p) ->
  forall i, p <= i -> realized X lt (learned X Vec bil (last_completion Vec E L0)) i p.
Proof.
  intros E L0 p Hp Htrained i Hi.
  destruct (Nat.lt_ge_cases i L0) as [H|H].
  - destruct (Htrained i ltac:(lia)) as [_ T]. split; [lia|]. intros j Hj Hjp.
    unfold learned, last_completion.
    assert (Hl : forall k, k <= i -> (k <? L0) = true) by (intros; apply Nat.ltb_lt; lia).
    rewrite !Hl by lia. apply T; lia.
  - destruct (Htrained (L0 - 1) ltac:(lia)) as [_ T]. split; [lia|]. intros j Hj Hjp.
    unfold learned, last_completion.
    assert (Ei : (i <? L0) = false) by (apply Nat.ltb_ge; lia).
    assert (Ep : (p <? L0) = true) by (apply Nat.ltb_lt; lia).
    rewrite Ei, Ep. destruct (j <? L0) eqn:Ej.
    + apply Nat.ltb_lt in Ej. apply T; lia.
    + apply T; lia.
Qed.
End Last.

(* ---- concrete instances over nat: scores are nat with <, vectors option nat with None as z *)
Definition tab (f : nat -> nat -> nat) (a b : option nat) : nat :=
  match a, b with Some a', Some b' => f a' b' | _, _ => 0 end.

(* position:0 at L0 = 2 realized by scores 2 (key 0) and 1 (key 1) on row 1 *)
Definition pos0 (a b : nat) : nat := if Nat.eqb b 0 then 2 else 1.

Theorem not_a_function :
  (forall i, 0 <= i < 2 -> realized nat Nat.lt (learned nat (option nat) (tab pos0) Some) i 0) /\
  ~ realized nat Nat.lt (learned nat (option nat) (tab pos0) (zero_completion (option nat) None Some 2)) 2 0 /\
  realized nat Nat.lt (learned nat (option nat) (tab pos0) (last_completion (option nat) Some 2)) 2 0.
Proof.
  assert (T : forall i, 0 <= i < 2 -> realized nat Nat.lt (learned nat (option nat) (tab pos0) Some) i 0).
  { intros i Hi. split; [lia|]. intros j Hj Hj0. unfold learned, tab, pos0.
    destruct j; [lia|]. simpl. lia. }
  split; [exact T|split].
  - exact (zero_ties_new_rows nat (option nat) Nat.lt None 0 (tab pos0) ltac:(intros; lia)
             ltac:(intros; reflexivity) Some 2 2 0 ltac:(lia) ltac:(lia)).
  - apply (last_completion_position nat (option nat) Nat.lt (tab pos0) Some 2 0); [lia | exact T | lia].
Qed.

(* p = L0 - 1 = 1 (p <= L0 - 2 weakened): position:1 trained at L0 = 2, the last completion ties
   row 2's target with key 2. *)
Definition pos1 (a b : nat) : nat := if Nat.eqb b 1 then 1 else 0.

Theorem control_position_last_key :
  realized nat Nat.lt (learned nat (option nat) (tab pos1) Some) 1 1 /\
  ~ realized nat Nat.lt (learned nat (option nat) (tab pos1) (last_completion (option nat) Some 2)) 2 1.
Proof.
  split.
  - split; [lia|]. intros j Hj Hj1. assert (j = 0) as -> by lia. cbv. lia.
  - intros [_ H]. specialize (H 2 ltac:(lia) ltac:(lia)). cbv in H. lia.
Qed.

(* copy at L0 = 4 (rows 2, 3, targets 0, 1) realized by the table below; at L = 6 row 3 < L0 is
   in R_6 with target 0 and fails under the zero completion. *)
Definition copy4 (a b : nat) : nat := if Nat.eqb b (a - 2) then 1 else 0.

Theorem control_copy_moves :
  (forall i, 2 <= i < 4 -> realized nat Nat.lt (learned nat (option nat) (tab copy4) Some) i (i - 4 / 2)) /\
  6 / 2 <= 3 < 4 /\
  ~ realized nat Nat.lt (learned nat (option nat) (tab copy4) (zero_completion (option nat) None Some 4)) 3 (3 - 6 / 2).
Proof.
  split; [|split; [simpl; lia|]].
  - intros i Hi. split; [simpl; lia|]. intros j Hj Hjt. unfold learned, tab, copy4. simpl in *.
    assert (Hne : Nat.eqb j (i - 2) = false) by (apply Nat.eqb_neq; lia).
    rewrite Hne, Nat.eqb_refl. lia.
  - intros [_ H]. specialize (H 1 ltac:(lia) ltac:(simpl; lia)). cbv in H. lia.
Qed.

(* reverse at L0 = 2 (row 1, target 0) realized by the table below; with L0 < L dropped (L = L0 = 2)
   the zero completion keeps the row *)
Definition rev2 (a b : nat) : nat := if Nat.eqb b (1 - a) then 1 else 0.

Theorem control_reverse_same_length :
  realized nat Nat.lt (learned nat (option nat) (tab rev2) Some) 1 (2 - 1 - 1) /\
  realized nat Nat.lt (learned nat (option nat) (tab rev2) (zero_completion (option nat) None Some 2)) 1 (2 - 1 - 1).
Proof.
  split; (split; [simpl; lia|]); intros j Hj Hj0; assert (j = 1) as -> by (simpl in Hj0; lia); cbv; lia.
Qed.

(* ---- the zero form: a score additive in its first argument vanishes at the zero vector *)
Require Import Reals Lra.
Open Scope R_scope.

Theorem zero_form : forall (Vec : Type) (plus : Vec -> Vec -> Vec) (z : Vec) (B : Vec -> Vec -> R),
  plus z z = z -> (forall x y v, B (plus x y) v = B x v + B y v) -> forall v, B z v = 0.
Proof. intros Vec plus z B Hz Hadd v. pose proof (Hadd z z v) as H. rewrite Hz in H. lra. Qed.

(* additivity dropped: the constant score 1 is not zero at z *)
Theorem control_zero_form_additivity : ~ (forall v : nat, (fun _ _ : nat => 1) 0%nat v = 0).
Proof. intros H. specialize (H 0%nat). simpl in H. lra. Qed.
