(* E1 (depth alone does not escape): the route lemma for every number of layers K, and the
   accuracy bound beta^(K) it gives.

   Formalizes, from docs/definitions.md:
   - #escape-depth: K positional-only hard-attention layers with a residual stream.  Tokens are
     an input x : nat -> T over any token type T.  Layer k + 1 routes row i to [route k i], a
     function of (k, i) alone (and of the length n, which is held fixed: route may be any
     function of it); causal means route k i <= i.  The residual stream of row i after K layers
     is [run route K x i]: a leaf holding x i at K = 0, and at layer k + 1 the pair (the stream
     of row i, the stream of row route k i) -- appending keeps both, so every function of the
     appended stream is a function of this pair.
   - S_K(i) is [reads route K i], a list that enumerates the set: [i] at K = 0, and
     S_(k+1)(i) = S_k(i) ++ S_k(route k i); its set of positions is nodup of the list.
   - A readout g maps the stream to an output; an input distribution is a finite list D of
     inputs (as in Expressivity.v), so accuracies are counts over D.  beta_i^(K) (times |D|) is
     any bound b on the count of every predictor h that reads the tokens of a set S of at most
     2^K positions of 0..i (the least such b is beta_i^(K) |D|).

   Main results:
   - route_lemma: inputs that agree on S_K(i) give the same stream on row i (for every K);
   - reads_causal: S_K(i) is inside 0..i when every route is causal;
   - reads_length, reads_card: the list has 2^K entries, so the set has at most 2^K positions;
   - readout_factors: every readout of row i's stream is a function of the tokens at S_K(i);
   - depth_accuracy_bound: any readout's count on row i is at most beta_i^(K) |D|;
   - needs_sensitive_position, depth_sensitivity_bound: a readout right on every input reads
     every position its target is sensitive to, so at most 2^K of them;
   - prefix_parity_escapes_depth: the prefix parity (the sum mod 2 of x 0..x i, one-bit
     addition) is not computed on row i by any readout of K layers once i + 1 > 2^K;
   - sort_last_escapes_depth: the last row of sorting n bits (their maximum) is not computed by
     any readout of K layers once n > 2^K (beta^(K) < 1 on that row over all inputs).
   - addition_carry_escapes_depth: the carry out of adding two k-digit binary numbers (the top
     digit of the sum) is not computed by any readout of K layers once 2 k > 2^K.

   Negative controls: control_token_route (a route that reads a token outside S_1(2): two
   inputs agree on S_1(2) yet their streams differ), control_noncausal_route (route i <= i
   dropped: S_1(0) holds position 1). *)

Require Import Arith Lia List Bool.
Import ListNotations.

Section Depth.
Variable T : Type.

Inductive stream : Type :=
  | leaf : T -> stream
  | node : stream -> stream -> stream.

Fixpoint run (route : nat -> nat -> nat) (K : nat) (x : nat -> T) (i : nat) : stream :=
  match K with
  | O => leaf (x i)
  | S k => node (run route k x i) (run route k x (route k i))
  end.

Fixpoint reads (route : nat -> nat -> nat) (K i : nat) : list nat :=
  match K with
  | O => [i]
  | S k => reads route k i ++ reads route k (route k i)
  end.

Theorem route_lemma : forall route K x y i,
  (forall p, In p (reads route K i) -> x p = y p) -> run route K x i = run route K y i.
Proof.
  intros route K x y; induction K as [|k IH]; intros i H; simpl in *.
  - f_equal. apply H. left. reflexivity.
  - rewrite (IH i), (IH (route k i)); [reflexivity| |];
      intros p Hp; apply H; apply in_or_app; auto.
Qed.

Theorem reads_causal : forall route, (forall k j, route k j <= j) ->
  forall K i p, In p (reads route K i) -> p <= i.
Proof.
  intros route Hr K; induction K as [|k IH]; intros i p Hp; simpl in Hp.
  - destruct Hp as [->|[]]. lia.
  - apply in_app_or in Hp. destruct Hp as [Hp|Hp]; [apply (IH i p Hp)|].
    specialize (IH (route k i) p Hp). specialize (Hr k i). lia.
Qed.

Theorem reads_length : forall route K i, length (reads route K i) = 2 ^ K.
Proof.
  intros route K; induction K as [|k IH]; intros i; simpl; [reflexivity|].
  rewrite app_length, !IH. lia.
Qed.

Theorem reads_card : forall route K i, length (nodup Nat.eq_dec (reads route K i)) <= 2 ^ K.
Proof.
  intros route K i. rewrite <- (reads_length route K i).
  apply NoDup_incl_length; [apply NoDup_nodup|].
  intros p Hp. apply nodup_In in Hp. exact Hp.
Qed.

(* rebuilding an input from the tokens at a list of positions, t0 elsewhere *)
Fixpoint lookup (t0 : T) (S : list nat) (l : list T) (p : nat) : T :=
  match S, l with
  | q :: S', a :: l' => if Nat.eqb p q then a else lookup t0 S' l' p
  | _, _ => t0
  end.

Lemma lookup_map : forall t0 S (x : nat -> T) p, In p S -> lookup t0 S (map x S) p = x p.
Proof.
  intros t0 S x p; induction S as [|q S IH]; intros Hp; simpl in *; [destruct Hp|].
  destruct (Nat.eqb_spec p q) as [->|E]; [reflexivity|].
  apply IH. destruct Hp as [Hp|Hp]; [congruence|exact Hp].
Qed.

Theorem readout_factors : forall (O : Type) (t0 : T) route K i (g : stream -> O),
  exists h : list T -> O, forall x, g (run route K x i) = h (map x (reads route K i)).
Proof.
  intros O t0 route K i g.
  exists (fun l => g (run route K (lookup t0 (reads route K i) l) i)).
  intros x. f_equal. apply route_lemma. intros p Hp. symmetry. apply lookup_map. exact Hp.
Qed.

Definition count (P : (nat -> T) -> bool) (D : list (nat -> T)) : nat := length (filter P D).

Lemma count_ext : forall P Q D, (forall x, P x = Q x) -> count P D = count Q D.
Proof.
  intros P Q D H. unfold count. induction D as [|x D IH]; simpl; [reflexivity|].
  rewrite H. destruct (Q x); simpl; rewrite IH; reflexivity.
Qed.

Theorem depth_accuracy_bound : forall (O : Type) (eqO : O -> O -> bool) (t0 : T) route K i
  (D : list (nat -> T)) (F : (nat -> T) -> O) (g : stream -> O) (b : nat),
  (forall k j, route k j <= j) ->
  (forall (S : list nat) (h : list T -> O), length (nodup Nat.eq_dec S) <= 2 ^ K ->
     (forall p, In p S -> p <= i) -> count (fun x => eqO (h (map x S)) (F x)) D <= b) ->
  count (fun x => eqO (g (run route K x i)) (F x)) D <= b.
Proof.
  intros O eqO t0 route K i D F g b Hr Hb.
  destruct (readout_factors O t0 route K i g) as [h Hh].
  rewrite (count_ext _ (fun x => eqO (h (map x (reads route K i))) (F x))) by (intros x; rewrite Hh; reflexivity).
  apply Hb; [apply reads_card|]. intros p Hp. exact (reads_causal route Hr K i p Hp).
Qed.

(* a target is sensitive to position p when two inputs that differ only at p have different
   targets *)
Definition sensitive {O : Type} (F : (nat -> T) -> O) (p : nat) : Prop :=
  exists x y, (forall q, q <> p -> x q = y q) /\ F x <> F y.

Theorem needs_sensitive_position : forall (O : Type) route K i (g : stream -> O) (F : (nat -> T) -> O) p,
  (forall x, g (run route K x i) = F x) -> sensitive F p -> In p (reads route K i).
Proof.
  intros O route K i g F p Hg [x [y [Hxy HF]]].
  destruct (in_dec Nat.eq_dec p (reads route K i)) as [Hin|Hout]; [exact Hin|exfalso].
  apply HF. rewrite <- (Hg x), <- (Hg y). f_equal. apply route_lemma.
  intros q Hq. apply Hxy. intros ->. exact (Hout Hq).
Qed.

Theorem depth_sensitivity_bound : forall (O : Type) route K i (g : stream -> O) (F : (nat -> T) -> O) P,
  NoDup P -> (forall p, In p P -> sensitive F p) -> (forall x, g (run route K x i) = F x) ->
  length P <= 2 ^ K.
Proof.
  intros O route K i g F P HP Hs Hg. eapply Nat.le_trans; [|apply (reads_card route K i)].
  apply NoDup_incl_length; [exact HP|]. intros p Hp. apply nodup_In.
  exact (needs_sensitive_position O route K i g F p Hg (Hs p Hp)).
Qed.
End Depth.

(* ---- an instance: the prefix parity over bits is sensitive to every position 0..i *)
Fixpoint parity (x : nat -> bool) (i : nat) : bool :=
  match i with O => x O | S k => xorb (parity x k) (x (S k)) end.

Definition flip (x : nat -> bool) (p : nat) : nat -> bool := fun q => if Nat.eqb q p then negb (x q) else x q.

Lemma parity_flip_far : forall x p i, i < p -> parity (flip x p) i = parity x i.
Proof.
  intros x p i; induction i as [|k IH]; intros Hp; simpl; unfold flip.
  - destruct (Nat.eqb_spec 0 p); [lia|reflexivity].
  - fold (flip x p). rewrite IH by lia. destruct (Nat.eqb_spec (S k) p); [lia|reflexivity].
Qed.

Lemma parity_flip : forall x p i, p <= i -> parity (flip x p) i = negb (parity x i).
Proof.
  intros x p i; induction i as [|k IH]; intros Hp; simpl.
  - assert (p = 0) as -> by lia. reflexivity.
  - unfold flip at 2. destruct (Nat.eqb_spec (S k) p) as [E|E].
    + subst p. rewrite parity_flip_far by lia. destruct (parity x k), (x (S k)); reflexivity.
    + rewrite IH by lia. destruct (parity x k), (x (S k)); reflexivity.
Qed.

Lemma parity_sensitive : forall i p, p <= i -> sensitive bool (fun x => parity x i) p.
Proof.
  intros i p Hp. exists (fun _ => false), (flip (fun _ => false) p). split.
  - intros q Hq. unfold flip. destruct (Nat.eqb_spec q p); [congruence|reflexivity].
  - rewrite parity_flip by exact Hp. destruct (parity (fun _ => false) i); discriminate.
Qed.

Theorem prefix_parity_escapes_depth : forall route K i (g : stream bool -> bool),
  2 ^ K < i + 1 -> ~ (forall x, g (run bool route K x i) = parity x i).
Proof.
  intros route K i g HK Hg.
  assert (L := depth_sensitivity_bound bool bool route K i g (fun x => parity x i) (seq 0 (i + 1))
                 (seq_NoDup _ _) ltac:(intros p Hp; apply parity_sensitive; apply in_seq in Hp; lia) Hg).
  rewrite seq_length in L. lia.
Qed.

(* ---- another instance: the last row of sorting (ascending) is the maximum; over bits it is the
   OR of x 0..x (n-1), sensitive to every position; routes may read any position here (sorting
   sees the whole input), the bound needs no causality *)
Definition bmax (x : nat -> bool) (n : nat) : bool := existsb x (seq 0 n).

Lemma bmax_sensitive : forall n p, p < n -> sensitive bool (fun x => bmax x n) p.
Proof.
  intros n p Hp. exists (fun _ => false), (flip (fun _ => false) p). split.
  - intros q Hq. unfold flip. destruct (Nat.eqb_spec q p); [congruence|reflexivity].
  - unfold bmax. replace (existsb (fun _ => false) (seq 0 n)) with false.
    2: { symmetry. apply not_true_iff_false. intros E. apply existsb_exists in E. destruct E as [_ [_ E]]. discriminate. }
    replace (existsb (flip (fun _ => false) p) (seq 0 n)) with true; [discriminate|].
    symmetry. apply existsb_exists. exists p. split; [apply in_seq; lia|]. unfold flip. rewrite Nat.eqb_refl. reflexivity.
Qed.

Theorem sort_last_escapes_depth : forall route K n (g : stream bool -> bool),
  2 ^ K < n -> ~ (forall x, g (run bool route K x (n - 1)) = bmax x n).
Proof.
  intros route K n g HK Hg.
  assert (L := depth_sensitivity_bound bool bool route K (n - 1) g (fun x => bmax x n) (seq 0 n)
                 (seq_NoDup _ _) ltac:(intros p Hp; apply bmax_sensitive; apply in_seq in Hp; lia) Hg).
  rewrite seq_length in L. lia.
Qed.

(* ---- another instance: addition of two k-digit binary numbers a (positions 0..k-1) and b
   (positions k..2k-1), digit j of weight 2^j; the top output digit (the carry out, row k of the
   output) is sensitive to all 2 k input digits *)
Fixpoint val (x : nat -> bool) (off k : nat) : nat :=
  match k with O => 0 | S j => val x off j + (if x (off + j) then 2 ^ j else 0) end.

Definition carry (x : nat -> bool) (k : nat) : bool := Nat.leb (2 ^ k) (val x 0 k + val x k k).

Lemma val_ext : forall x y off k, (forall j, j < k -> x (off + j) = y (off + j)) -> val x off k = val y off k.
Proof.
  intros x y off k H; induction k as [|k IH]; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H k) by lia. reflexivity.
Qed.

Lemma val_ones : forall x off k, (forall j, j < k -> x (off + j) = true) -> val x off k = 2 ^ k - 1.
Proof.
  intros x off k H; induction k as [|k IH]; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H k) by lia. pose proof (Nat.pow_nonzero 2 k). lia.
Qed.

Lemma val_zeros : forall x off k, (forall j, j < k -> x (off + j) = false) -> val x off k = 0.
Proof.
  intros x off k H; induction k as [|k IH]; simpl; [reflexivity|].
  rewrite IH by (intros; apply H; lia). rewrite (H k) by lia. reflexivity.
Qed.

Lemma val_flip_up : forall x off k p, off <= p < off + k -> x p = false ->
  val (flip x p) off k = val x off k + 2 ^ (p - off).
Proof.
  intros x off k p; induction k as [|k IH]; intros Hp Hx; simpl; [lia|].
  unfold flip at 2. destruct (Nat.eqb_spec (off + k) p) as [E|E].
    + subst p. rewrite Hx. replace (off + k - off) with k by lia.
      rewrite (val_ext (flip x (off + k)) x off k); [simpl; lia|].
      intros j Hj. unfold flip. destruct (Nat.eqb_spec (off + j) (off + k)); [lia|reflexivity].
    + rewrite IH by (auto; lia). lia.
Qed.

Lemma carry_sensitive : forall k p, p < 2 * k -> sensitive bool (fun x => carry x k) p.
Proof.
  intros k p Hp. pose proof (Nat.pow_nonzero 2 k ltac:(lia)) as Pk.
  destruct (Nat.lt_ge_cases p k) as [Lo|Hi].
  - (* a = 0, b = 2^k - 1: no carry; a's digit p set: a carry *)
    set (x0 := fun q => Nat.leb k q). exists x0, (flip x0 p). split.
    + intros q Hq. unfold flip. destruct (Nat.eqb_spec q p); [congruence|reflexivity].
    + assert (A0 : val x0 0 k = 0) by (apply val_zeros; intros j Hj; apply Nat.leb_gt; lia).
      assert (B0 : val x0 k k = 2 ^ k - 1) by (apply val_ones; intros j Hj; apply Nat.leb_le; lia).
      assert (Fx : x0 p = false) by (apply Nat.leb_gt; lia).
      assert (A1 : val (flip x0 p) 0 k = 2 ^ p) by (rewrite val_flip_up by (auto; lia); rewrite A0, Nat.sub_0_r; reflexivity).
      assert (B1 : val (flip x0 p) k k = 2 ^ k - 1).
      { rewrite (val_ext (flip x0 p) x0 k k); [exact B0|]. intros j Hj. unfold flip.
        destruct (Nat.eqb_spec (k + j) p); [lia|reflexivity]. }
      pose proof (Nat.pow_nonzero 2 p ltac:(lia)).
      unfold carry. rewrite A0, B0, A1, B1.
      replace (Nat.leb (2 ^ k) (0 + (2 ^ k - 1))) with false by (symmetry; apply Nat.leb_gt; lia).
      replace (Nat.leb (2 ^ k) (2 ^ p + (2 ^ k - 1))) with true by (symmetry; apply Nat.leb_le; lia).
      discriminate.
  - (* a = 2^k - 1, b = 0: no carry; b's digit p - k set: a carry *)
    set (x1 := fun q => Nat.ltb q k). exists x1, (flip x1 p). split.
    + intros q Hq. unfold flip. destruct (Nat.eqb_spec q p); [congruence|reflexivity].
    + assert (A0 : val x1 0 k = 2 ^ k - 1) by (apply val_ones; intros j Hj; apply Nat.ltb_lt; lia).
      assert (B0 : val x1 k k = 0) by (apply val_zeros; intros j Hj; apply Nat.ltb_ge; lia).
      assert (Fx : x1 p = false) by (apply Nat.ltb_ge; lia).
      assert (B1 : val (flip x1 p) k k = 2 ^ (p - k)) by (rewrite val_flip_up by (auto; lia); rewrite B0; reflexivity).
      assert (A1 : val (flip x1 p) 0 k = 2 ^ k - 1).
      { rewrite (val_ext (flip x1 p) x1 0 k); [exact A0|]. intros j Hj. unfold flip.
        destruct (Nat.eqb_spec (0 + j) p); [lia|reflexivity]. }
      pose proof (Nat.pow_nonzero 2 (p - k) ltac:(lia)).
      unfold carry. rewrite A0, B0, A1, B1.
      replace (Nat.leb (2 ^ k) (2 ^ k - 1 + 0)) with false by (symmetry; apply Nat.leb_gt; lia).
      replace (Nat.leb (2 ^ k) (2 ^ k - 1 + 2 ^ (p - k))) with true by (symmetry; apply Nat.leb_le; lia).
      discriminate.
Qed.

Theorem addition_carry_escapes_depth : forall route K k i (g : stream bool -> bool),
  2 ^ K < 2 * k -> ~ (forall x, g (run bool route K x i) = carry x k).
Proof.
  intros route K k i g HK Hg.
  assert (L := depth_sensitivity_bound bool bool route K i g (fun x => carry x k) (seq 0 (2 * k))
                 (seq_NoDup _ _) ltac:(intros p Hp; apply carry_sensitive; apply in_seq in Hp; lia) Hg).
  rewrite seq_length in L. lia.
Qed.

(* ---- negative controls *)
Definition route_tok (x : nat -> nat) (k j : nat) : nat := if Nat.eqb (x 1) 0 then 0 else 1.

Fixpoint run_tok (route : (nat -> nat) -> nat -> nat -> nat) (K : nat) (x : nat -> nat) (i : nat) : stream nat :=
  match K with
  | O => leaf nat (x i)
  | S k => node nat (run_tok route k x i) (run_tok route k x (route x k i))
  end.

Definition x000 (k : nat) : nat := 0.
Definition x010 (k : nat) : nat := match k with 1 => 1 | _ => 0 end.

(* the route of row 2 reads token 1: x000 routes to 0, x010 to 1; both agree on
   S_1(2) = {2, 0} (the positions x000's route reads), and the streams differ *)
Theorem control_token_route :
  reads (route_tok x000) 1 2 = [2; 0] /\ (forall p, In p [2; 0] -> x000 p = x010 p) /\
  route_tok x010 0 2 <= 2 /\ run_tok route_tok 1 x000 2 <> run_tok route_tok 1 x010 2.
Proof.
  split; [reflexivity|]. split; [intros p [<-|[<-|[]]]; reflexivity|]. split; [cbn; lia|].
  cbn. discriminate.
Qed.

(* route k j = j + 1 (not causal): S_1(0) holds position 1 *)
Theorem control_noncausal_route : In 1 (reads (fun k j => j + 1) 1 0) /\ ~ 1 <= 0.
Proof. split; [simpl; auto|lia]. Qed.
