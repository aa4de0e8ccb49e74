(* Proposition 4 (absolute/relative duality), for every length and every row.

   Formalizes, from docs/definitions.md:
   - #grid: row i of a grid sees the keys j = 0..i.
   - #proposition-4: the shear S (i, j) = (i, i - j); on a kernel (or a PE's feature map, the
     same operation on nat -> nat -> V) [shear k i j = k i (i - j)]; on a task's target
     [shear_task tgt n i = i - tgt n i] on the same rows.
   - #realization-and-margin: [realized lt k i t] over any type of scores with a relation lt;
     [is_margin] over R (a lower bound on every difference, attained at one key).
   - #linear-pe: relative (psi i j = f (i - j)) and column (psi i j = f j) feature maps.
   - #positional-task: offset:c, position:c, copy, middle (h = n / 2), fixed-offset,
     fixed-position and growing tasks.
   - #selection: the training constraints at L0 as a predicate [feasible] built from any
     per-pair constraint C th (psi i t) (psi i j) (for the hard-margin SVM:
     dot th (psi i t - psi i j) >= 1), and [selected]: feasible and no larger, for any order on
     parameters, than every feasible parameter (the minimum-norm selection).

   Main results:
   - shear_involution, shear_task_involution, shear_keys_onto: S is an involution and maps each
     row's key set 0..i onto itself;
   - shear_realized, shear_margin: realization and margins are preserved;
   - relative_to_column, column_to_relative: the shear maps relative PEs to column PEs and back;
   - offset_to_position, position_to_offset, copy_to_middle, middle_to_copy,
     growing_to_growing: the class correspondences;
   - sheared_kernel: the kernel of th under the sheared PE is the shear of its kernel;
   - same_constraints, same_selection, same_row_outcomes: the training constraint sets coincide,
     hence the same selected parameters and the same realized rows at every length L (so the
     same transfer coefficient);
   - column_deep_rows: the dual of Theorem 2, a column kernel with unique maximizer p realizes,
     on the rows i >= p, exactly position:p.
   Every result except shear_margin (over R) holds over abstract types.

   Negative controls: control_involution_off_triangle, control_task_not_sheared,
   control_constraints_task_not_sheared, control_copy_off_rows. *)

Require Import Arith Lia Reals Lra.

Definition shear {V : Type} (k : nat -> nat -> V) : nat -> nat -> V := fun i j => k i (i - j).
Definition shear_task (tgt : nat -> nat -> nat) : nat -> nat -> nat := fun n i => i - tgt n i.

Theorem shear_involution : forall (V : Type) (k : nat -> nat -> V) i j, j <= i -> shear (shear k) i j = k i j.
Proof. intros V k i j H. unfold shear. f_equal. lia. Qed.

Theorem shear_task_involution : forall (rows : nat -> nat -> Prop) tgt n i,
  (forall n i, rows n i -> tgt n i <= i) -> rows n i -> shear_task (shear_task tgt) n i = tgt n i.
Proof. intros rows tgt n i Ht Hr. unfold shear_task. specialize (Ht n i Hr). lia. Qed.

Theorem shear_keys_onto : forall i k, k <= i -> exists j, j <= i /\ i - j = k /\ i - k = j.
Proof. intros i k H. exists (i - k). repeat split; lia. Qed.

Section Scores.
Variable X : Type.
Variable lt : X -> X -> Prop.

Definition realized (k : nat -> nat -> X) (i t : nat) : Prop :=
  t <= i /\ forall j, j <= i -> j <> t -> lt (k i j) (k i t).

Theorem shear_realized : forall k i t, t <= i -> (realized (shear k) i (i - t) <-> realized k i t).
Proof.
  intros k i t Ht. unfold realized, shear. replace (i - (i - t)) with t by lia. split.
  - intros [_ H]. split; [lia|]. intros j Hj Hjt.
    replace j with (i - (i - j)) by lia. apply H; lia.
  - intros [_ H]. split; [lia|]. intros j Hj Hjt. apply H; lia.
Qed.

(* Parameters th, features of type V, the kernel of th is score th (psi i j). *)
Variables (Th V : Type) (score : Th -> V -> X).

Definition kernel (psi : nat -> nat -> V) (th : Th) : nat -> nat -> X := fun i j => score th (psi i j).

Theorem sheared_kernel : forall psi th i j, kernel (shear psi) th i j = shear (kernel psi th) i j.
Proof. reflexivity. Qed.

Variable C : Th -> V -> V -> Prop.

Definition feasible (psi : nat -> nat -> V) (rows : nat -> nat -> Prop) (tgt : nat -> nat -> nat) (L0 : nat)
  (th : Th) : Prop :=
  forall i j, i < L0 -> rows L0 i -> j <= i -> j <> tgt L0 i -> C th (psi i (tgt L0 i)) (psi i j).

Theorem same_constraints : forall psi (rows : nat -> nat -> Prop) tgt L0 th,
  (forall n i, rows n i -> tgt n i <= i) ->
  (feasible (shear psi) rows (shear_task tgt) L0 th <-> feasible psi rows tgt L0 th).
Proof.
  intros psi rows tgt L0 th Ht. unfold feasible, shear, shear_task; cbv beta. split.
  - intros H i j Hi Hr Hj Hjt. specialize (Ht L0 i Hr).
    assert (E := H i (i - j) Hi Hr ltac:(lia) ltac:(lia)).
    replace (i - (i - tgt L0 i)) with (tgt L0 i) in E by lia.
    replace (i - (i - j)) with j in E by lia. exact E.
  - intros H i j Hi Hr Hj Hjt. specialize (Ht L0 i Hr).
    replace (i - (i - tgt L0 i)) with (tgt L0 i) by lia. apply H; first [assumption | lia].
Qed.

Variable normle : Th -> Th -> Prop.

Definition selected psi (rows : nat -> nat -> Prop) tgt L0 (th : Th) : Prop :=
  feasible psi rows tgt L0 th /\ forall th', feasible psi rows tgt L0 th' -> normle th th'.

Theorem same_selection : forall psi (rows : nat -> nat -> Prop) tgt L0 th,
  (forall n i, rows n i -> tgt n i <= i) ->
  (selected (shear psi) rows (shear_task tgt) L0 th <-> selected psi rows tgt L0 th).
Proof.
  intros psi rows tgt L0 th Ht. unfold selected. split.
  - intros [F M]. split; [apply (same_constraints psi rows tgt L0 th Ht); exact F|].
    intros th' F'. apply M. apply (same_constraints psi rows tgt L0 th' Ht). exact F'.
  - intros [F M]. split; [apply (same_constraints psi rows tgt L0 th Ht); exact F|].
    intros th' F'. apply M. apply (same_constraints psi rows tgt L0 th' Ht). exact F'.
Qed.

(* At every length L: the same selected parameters realize the same rows of the same row set. *)
Theorem same_row_outcomes : forall psi (rows : nat -> nat -> Prop) tgt L0 L th,
  (forall n i, rows n i -> tgt n i <= i) ->
  selected (shear psi) rows (shear_task tgt) L0 th ->
  selected psi rows tgt L0 th /\
  forall i, i < L -> rows L i ->
    (realized (kernel (shear psi) th) i (shear_task tgt L i) <-> realized (kernel psi th) i (tgt L i)).
Proof.
  intros psi rows tgt L0 L th Ht Hs. split; [apply (same_selection psi rows tgt L0 th Ht); exact Hs|].
  intros i Hi Hr. unfold shear_task. apply (shear_realized (kernel psi th)). exact (Ht L i Hr).
Qed.

End Scores.

(* ---- margins over R *)
Open Scope R_scope.

Definition is_margin (k : nat -> nat -> R) (i t : nat) (g : R) : Prop :=
  (forall j, (j <= i)%nat -> j <> t -> k i t - k i j >= g) /\
  (exists j, (j <= i)%nat /\ j <> t /\ k i t - k i j = g).

Theorem shear_margin : forall k i t g, (t <= i)%nat -> (is_margin (shear k) i (i - t) g <-> is_margin k i t g).
Proof.
  intros k i t g Ht. unfold is_margin, shear. replace (i - (i - t))%nat with t by lia. split.
  - intros [H [j [Hj [Hjt E]]]]. split.
    + intros j' Hj' Hj't. replace j' with (i - (i - j'))%nat by lia. apply H; lia.
    + exists (i - j)%nat. repeat split; [lia | lia | exact E].
  - intros [H [j [Hj [Hjt E]]]]. split.
    + intros j' Hj' Hj't. apply H; lia.
    + exists (i - j)%nat. replace (i - (i - j))%nat with j by lia. repeat split; [lia | lia | exact E].
Qed.
Close Scope R_scope.

(* ---- PE classes *)
Definition relative {V : Type} (psi : nat -> nat -> V) := exists f : nat -> V, forall i j, j <= i -> psi i j = f (i - j).
Definition column {V : Type} (psi : nat -> nat -> V) := exists f : nat -> V, forall i j, j <= i -> psi i j = f j.

Theorem relative_to_column : forall (V : Type) (psi : nat -> nat -> V), relative psi -> column (shear psi).
Proof.
  intros V psi [f H]. exists f. intros i j Hj. unfold shear. rewrite H by lia. f_equal. lia.
Qed.

Theorem column_to_relative : forall (V : Type) (psi : nat -> nat -> V), column psi -> relative (shear psi).
Proof. intros V psi [f H]. exists f. intros i j Hj. unfold shear. apply H. lia. Qed.

(* ---- task classes *)
Definition offset_tgt (c : nat) (n i : nat) := i - c.
Definition position_tgt (c : nat) (n i : nat) := c.
Definition copy_tgt (n i : nat) := i - n / 2.
Definition middle_tgt (n i : nat) := n / 2.

Theorem offset_to_position : forall c n i, c <= i -> shear_task (offset_tgt c) n i = position_tgt c n i.
Proof. intros. unfold shear_task, offset_tgt, position_tgt. lia. Qed.

Theorem position_to_offset : forall c n i, c <= i -> shear_task (position_tgt c) n i = offset_tgt c n i.
Proof. intros. reflexivity. Qed.

Theorem copy_to_middle : forall n i, n / 2 <= i -> shear_task copy_tgt n i = middle_tgt n i.
Proof. intros. unfold shear_task, copy_tgt, middle_tgt. lia. Qed.

Theorem middle_to_copy : forall n i, n / 2 <= i -> shear_task middle_tgt n i = copy_tgt n i.
Proof. intros. reflexivity. Qed.

Definition fixed_offset (rows : nat -> nat -> Prop) (tgt : nat -> nat -> nat) :=
  exists c, forall n i, rows n i -> i - tgt n i = c.
Definition fixed_position (rows : nat -> nat -> Prop) (tgt : nat -> nat -> nat) :=
  exists c, forall n i, rows n i -> tgt n i = c.
Definition growing (rows : nat -> nat -> Prop) tgt := ~ fixed_offset rows tgt /\ ~ fixed_position rows tgt.

Theorem fixed_offset_iff_position : forall (rows : nat -> nat -> Prop) tgt, (forall n i, rows n i -> tgt n i <= i) ->
  (fixed_offset rows tgt <-> fixed_position rows (shear_task tgt)) /\
  (fixed_position rows tgt <-> fixed_offset rows (shear_task tgt)).
Proof.
  intros rows tgt Ht. unfold fixed_offset, fixed_position, shear_task. split; split; intros [c H]; exists c;
    intros n i Hr; specialize (H n i Hr); specialize (Ht n i Hr); lia.
Qed.

Theorem growing_to_growing : forall (rows : nat -> nat -> Prop) tgt, (forall n i, rows n i -> tgt n i <= i) ->
  (growing rows tgt <-> growing rows (shear_task tgt)).
Proof.
  intros rows tgt Ht. destruct (fixed_offset_iff_position rows tgt Ht) as [[A1 A2] [B1 B2]].
  unfold growing. tauto.
Qed.

(* ---- the dual of Theorem 2 for column kernels *)
Section Column.
Variable A : Type.
Variable lt : A -> A -> Prop.
Hypothesis lt_irrefl : forall a, ~ lt a a.
Hypothesis lt_trans : forall a b c, lt a b -> lt b c -> lt a c.

Theorem column_deep_rows : forall (col : nat -> A) N p n i t,
  p < N -> (forall k, k < N -> k <> p -> lt (col k) (col p)) ->
  n <= N -> i < n -> p <= i -> t <= i ->
  (realized A lt (fun _ j => col j) i t <-> t = p).
Proof.
  intros col N p n i t Hp Hmax HnN Hi Hpi Ht. unfold realized. split.
  - intros [_ H]. destruct (Nat.eq_dec t p) as [E|E]; [exact E|exfalso].
    assert (H1 := H p Hpi (not_eq_sym E)). assert (H2 := Hmax t ltac:(lia) E).
    exact (lt_irrefl _ (lt_trans _ _ _ H1 H2)).
  - intros ->. split; [lia|]. intros j Hj Hjp. apply Hmax; lia.
Qed.
End Column.

(* ---- negative controls *)
(* Off the causal triangle (j > i) the shear is no involution. *)
Theorem control_involution_off_triangle : shear (shear (fun _ j : nat => j)) 0 1 <> 1.
Proof. unfold shear. simpl. lia. Qed.

(* The kernel sheared but not the task: row 1 of k i j = j realizes target 1, its shear does not. *)
Theorem control_task_not_sheared :
  realized nat Nat.lt (fun _ j => j) 1 1 /\ ~ realized nat Nat.lt (shear (fun _ j => j)) 1 1.
Proof.
  unfold realized, shear. split.
  - split; [lia|]. intros j Hj Hj1. lia.
  - intros [_ H]. specialize (H 0 ltac:(lia) ltac:(lia)). simpl in H. lia.
Qed.

(* The PE sheared but not the task: a parameter feasible for (psi, position:1 at L0 = 2) is not
   feasible for (shear psi, position:1); C th a b is b < a (score of the target above the key). *)
Theorem control_constraints_task_not_sheared :
  feasible unit nat (fun _ a b => b < a) (fun _ j => j) (fun n i => i = 1) (fun _ _ => 1) 2 tt /\
  ~ feasible unit nat (fun _ a b => b < a) (shear (fun _ j => j)) (fun n i => i = 1) (fun _ _ => 1) 2 tt.
Proof.
  unfold feasible, shear. split.
  - intros i j Hi Hr Hj Hjt. lia.
  - intros H. specialize (H 1 0 ltac:(lia) eq_refl ltac:(lia) ltac:(lia)). simpl in H. lia.
Qed.

(* Off the rows (i < h) copy's shear is not middle's target. *)
Theorem control_copy_off_rows : shear_task copy_tgt 4 0 <> middle_tgt 4 0.
Proof. unfold shear_task, copy_tgt, middle_tgt. simpl. lia. Qed.
