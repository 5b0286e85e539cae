import ai.framework.IBoard;
import ai.framework.IMove;
import ai.framework.MoveList;
import ai.mcts.MCTSOptions;
import ai.mcts.MCTSPlayer;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;

/**
 * Plays imcts (through `imcts engine`) against a player of the paper authors' Java code
 * (tpepels/mcts_gameframe), which must be compiled on the class path. This file is imcts's own;
 * it builds the paper's player from a label the way that code's `SimGame` reads it
 * (`mcts_s_h_ege0.1_det0.5_im0.4`), and uses that code's boards as referee.
 *
 * Usage: java -cp BUILD:. ImctsVsPaper --imcts PATH --game breakthrough|kalah --ours SPEC
 *        --theirs LABEL (--sims K | --ms T) --games N [--first I] [--seed S] [--our-sims J]
 *
 * Game i (from --first) seats imcts first when i is even. Kalah follows the paper's protocol:
 * "game" i is a random board (48 stones dropped into random houses) played twice with seats
 * swapped; a side wins the pair if it won one game and at least drew the other, and a pair the
 * same seat won twice is reported as discarded. One line per game (or pair) on stdout:
 * `result <i> ours_first <0|1> <win|loss|draw|discard> plies <n> our_sims <s> their_sims <s>`
 * (the code's count with --ms read back from its options, to within a simulation or so);
 * a Kalah pair adds `game_wins <w> game_losses <l> game_draws <d>`, its two games counted
 * one by one. imcts is told the Kalah rules this referee plays (`paper-code`: the code's
 * capture rule and its end test, which leaves North's house 6 out), or with
 * `--kalah-rules empty-capture` only its capture rule (the referee still ends games its way).
 * --our-sims J gives imcts J simulations a move instead of K (the code's player keeps K), to
 * set one side's search against the other's at a fixed ratio of simulations.
 * With --check-rules N it instead checks, over N random games, that both programs agree on
 * every move's result ([`checkRules`]).
 */
public class ImctsVsPaper {
    private String imcts, game = "breakthrough", ours, theirs, kalahRules = "paper-code";
    private int sims = 0, ms = 0, games = 2, first = 0, oursBudget = 0;
    private long seed = 1;
    private PrintWriter toEngine;
    private BufferedReader fromEngine;
    private long ourSims, theirSims;
    /** The options of the code's player in the game being played (its timed searches leave
     * their simulation count there). */
    private MCTSOptions theirOptions;
    private int checkRules = 0;

    /**
     * --check-rules N: plays N games of uniformly random moves on the paper's board and, after
     * every move, asks `imcts engine` to play the same move from the same position and compares
     * the resulting positions and game status. Prints `rules agree: <moves> moves` or fails.
     */
    void checkRules() throws Exception {
        Process p = new ProcessBuilder(imcts, "engine").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        toEngine = new PrintWriter(new OutputStreamWriter(p.getOutputStream()));
        fromEngine = new BufferedReader(new InputStreamReader(p.getInputStream()));
        engine("game " + game);
        java.util.Random r = new java.util.Random(seed);
        long moves = 0;
        int endsDiffer = 0;
        for (int g = 0; g < checkRules; g++) {
            IBoard b;
            if (game.equals("kalah")) {
                int[] init = new int[12];
                for (int k = 0; k < 48; k++)
                    init[r.nextInt(12)]++;
                kalah.game.Board k = new kalah.game.Board();
                k.initialize(init);
                b = k;
            } else {
                b = new breakthrough.game.Board();
                b.initialize();
            }
            while (b.checkWin() == IBoard.NONE_WIN) {
                MoveList ms = b.getExpandMoves();
                IMove m = ms.get(r.nextInt(ms.size()));
                String text = imctsMove(b, m);
                String before = position(b);
                engine("position " + before);
                engine("play " + text);
                String mine = engine("show").substring(3);
                b.doAIMove(m, b.getPlayerToMove());
                moves++;
                String over = engine("status");
                boolean javaOver = b.checkWin() != IBoard.NONE_WIN;
                if (javaOver != over.contains("over")) {
                    // Counted, not fatal (with imcts's `paper-code` rules this stays 0).
                    endsDiffer++;
                    break;
                }
                if (!javaOver && !mine.equals(position(b)))
                    throw new IllegalStateException("after " + text + " from " + before + ": imcts " + mine + " vs paper " + position(b));
            }
        }
        System.out.println("rules agree: " + moves + " moves in " + checkRules + " random games; "
                + endsDiffer + " games where only the paper's board ended");
        engine("quit");
        p.waitFor();
    }

    /** imcts's text for the paper's move `m` on `board`. */
    String imctsMove(IBoard board, IMove m) {
        int[] a = m.getMove();
        if (board instanceof breakthrough.game.Board)
            return "" + (char) ('a' + a[1]) + (8 - a[0]) + (m.getType() == breakthrough.game.Move.CAPTURE ? 'x' : '-')
                    + (char) ('a' + a[3]) + (8 - a[2]);
        return "" + (a[0] % 6 + 1);
    }

    public static void main(String[] args) throws Exception {
        ImctsVsPaper d = new ImctsVsPaper();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            String v = i + 1 < args.length ? args[i + 1] : null;
            switch (a) {
                case "--imcts": d.imcts = v; i++; break;
                case "--game": d.game = v; i++; break;
                case "--ours": d.ours = v; i++; break;
                case "--theirs": d.theirs = v; i++; break;
                case "--sims": d.sims = Integer.parseInt(v); i++; break;
                case "--our-sims": d.oursBudget = Integer.parseInt(v); i++; break;
                case "--ms": d.ms = Integer.parseInt(v); i++; break;
                case "--games": d.games = Integer.parseInt(v); i++; break;
                case "--first": d.first = Integer.parseInt(v); i++; break;
                case "--seed": d.seed = Long.parseLong(v); i++; break;
                case "--check-rules": d.checkRules = Integer.parseInt(v); i++; break;
                case "--kalah-rules": d.kalahRules = v; i++; break;
                default: throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (d.checkRules > 0) {
            d.checkRules();
            return;
        }
        if (d.imcts == null || d.ours == null || d.theirs == null || (d.sims <= 0) == (d.ms <= 0))
            throw new IllegalArgumentException("need --imcts, --ours, --theirs and one of --sims/--ms");
        if (d.oursBudget < 0 || (d.oursBudget > 0 && d.sims <= 0))
            throw new IllegalArgumentException("--our-sims needs --sims");
        d.run();
    }

    /** The paper code's player for `label`, built as its SimGame.loadPlayer builds one. */
    MCTSPlayer paperPlayer(String label) {
        String[] parts = label.split("_");
        if (!parts[0].equals("mcts"))
            throw new IllegalArgumentException("only mcts_... labels: " + label);
        MCTSOptions o = new MCTSOptions();
        o.debug = false;
        o.useHeuristics = false;
        o.solver = false;
        o.timeInterval = ms > 0 ? ms : 1000;
        o.simulations = sims;
        o.setGame(game);
        for (int i = 1; i < parts.length; i++) {
            String t = parts[i];
            if (t.startsWith("pd")) { o.earlyEval = true; o.pdepth = Integer.parseInt(t.substring(2)); }
            else if (t.equals("h")) o.useHeuristics = true;
            else if (t.startsWith("im")) { o.implicitMM = true; o.imAlpha = Double.parseDouble(t.substring(2)); }
            else if (t.startsWith("det")) { o.detEnabled = true; o.detThreshold = Double.parseDouble(t.substring(3)); }
            else if (t.startsWith("df")) o.detFreq = Integer.parseInt(t.substring(2));
            else if (t.startsWith("ege")) { o.epsGreedyEval = true; o.egeEpsilon = Double.parseDouble(t.substring(3)); }
            else if (t.startsWith("uct")) o.uctC = Double.parseDouble(t.substring(3));
            else if (t.equals("s")) o.solver = true;
            else if (t.startsWith("np")) { o.nodePriors = true; o.nodePriorsVisits = Integer.parseInt(t.substring(2)); }
            else if (t.startsWith("efv")) o.efVer = Integer.parseInt(t.substring(3));
            else if (t.startsWith("mbp")) { o.maxBackprop = true; o.maxBackpropT = Integer.parseInt(t.substring(3)); }
            else if (t.startsWith("pb")) { o.progBias = true; o.progBiasWeight = Double.parseDouble(t.substring(2)); }
            else if (t.equals("sl")) { /* the budget comes from --sims / --ms */ }
            else throw new IllegalArgumentException("tag not supported by this driver: " + t);
        }
        if (sims > 0) {
            o.fixedSimulations = true;
            // MCTSPlayer runs simulations + 1 simulations in fixed mode.
            o.simulations = sims - 1;
        }
        MCTSPlayer p = new MCTSPlayer();
        p.setOptions(o);
        theirOptions = o;
        return p;
    }

    String engine(String cmd) throws IOException {
        toEngine.println(cmd);
        toEngine.flush();
        String line = fromEngine.readLine();
        if (line == null || !line.startsWith("ok"))
            throw new IOException("imcts engine: '" + cmd + "' -> " + line);
        return line;
    }

    void run() throws Exception {
        Process p = new ProcessBuilder(imcts, "engine").redirectError(ProcessBuilder.Redirect.INHERIT).start();
        toEngine = new PrintWriter(new OutputStreamWriter(p.getOutputStream()));
        fromEngine = new BufferedReader(new InputStreamReader(p.getInputStream()));
        engine("game " + game);
        engine("player " + ours);
        for (int i = first; i < first + games; i++) {
            boolean oursFirst = i % 2 == 0;
            MCTSOptions.r.setSeed(seed * 1_000_003L + i);
            ourSims = 0;
            theirSims = 0;
            String line;
            if (game.equals("kalah")) {
                line = kalahPair(i, oursFirst);
            } else {
                breakthrough.game.Board b = new breakthrough.game.Board();
                b.initialize();
                int[] plies = {0};
                int w = play(b, oursFirst, i, plies);
                int ourSide = oursFirst ? 1 : 2;
                line = (w == ourSide ? "win" : w == IBoard.DRAW ? "draw" : "loss") + " plies " + plies[0];
            }
            System.out.println("result " + i + " ours_first " + (oursFirst ? 1 : 0) + " " + line
                    + " our_sims " + ourSims + " their_sims " + theirSims);
            System.out.flush();
        }
        engine("quit");
        p.waitFor();
    }

    /** Plays one game from `b`; returns the winner (1, 2 or IBoard.DRAW) by the board's rules. */
    int play(IBoard b, boolean oursFirst, int index, int[] plies) throws Exception {
        int ourSide = oursFirst ? 1 : 2;
        MCTSPlayer them = paperPlayer(theirs);
        them.newGame(3 - ourSide, game);
        engine("seed " + (seed * 7919L + index * 2L + 1));
        engine("player " + ours);
        while (b.checkWin() == IBoard.NONE_WIN) {
            int mover = b.getPlayerToMove();
            IMove m;
            if (mover == ourSide) {
                engine("position " + position(b));
                String ans = engine("go " + (sims > 0 ? "sims " + (oursBudget > 0 ? oursBudget : sims) : "ms " + ms));
                String[] w = ans.split(" ");
                m = toPaperMove(b, w[2]);
                for (int k = 0; k + 1 < w.length; k++)
                    if (w[k].equals("sims")) ourSims += Long.parseLong(w[k + 1]);
            } else {
                them.getMove(b.copy(), null, mover, false, null);
                m = them.getBestMove();
                // A timed search of the code's leaves its count plus 10% in numSimulations
                // (MCTSPlayer.getMove, for SW-UCT's next round): the count, to a simulation.
                theirSims += sims > 0 ? sims : Math.round(theirOptions.numSimulations / 1.1);
            }
            b.doAIMove(m, mover);
            plies[0]++;
        }
        return b.checkWin();
    }

    /** One random Kalah board, played twice with seats swapped (the paper's protocol). */
    String kalahPair(int index, boolean oursFirst) throws Exception {
        int[] init = new int[12];
        for (int k = 0; k < 48; k++)
            init[(int) (MCTSOptions.r.nextDouble() * 12)]++;
        int[] ourScore = new int[2], theirScore = new int[2];
        int[] plies = {0};
        for (int g = 0; g < 2; g++) {
            boolean of = (g == 0) == oursFirst;
            kalah.game.Board b = new kalah.game.Board();
            b.initialize(init.clone());
            play(b, of, index * 2 + g, plies);
            int us = of ? 1 : 2;
            ourScore[g] = b.getEndScore(us);
            theirScore[g] = b.getEndScore(3 - us);
        }
        boolean weWon = (ourScore[0] > theirScore[0] && ourScore[1] >= theirScore[1])
                || (ourScore[1] > theirScore[1] && ourScore[0] >= theirScore[0]);
        boolean theyWon = (theirScore[0] > ourScore[0] && theirScore[1] >= ourScore[1])
                || (theirScore[1] > ourScore[1] && theirScore[0] >= ourScore[0]);
        String r = weWon ? "win" : theyWon ? "loss" : (ourScore[0] == theirScore[0] && ourScore[1] == theirScore[1]) ? "draw" : "discard";
        // Each of the two games on its own as well (every board counts, none discarded).
        int gw = 0, gl = 0;
        for (int g = 0; g < 2; g++) {
            if (ourScore[g] > theirScore[g]) gw++;
            else if (ourScore[g] < theirScore[g]) gl++;
        }
        return r + " plies " + plies[0] + " game_wins " + gw + " game_losses " + gl + " game_draws " + (2 - gw - gl);
    }

    /** The position in imcts's notation. */
    String position(IBoard board) {
        StringBuilder s = new StringBuilder();
        if (board instanceof breakthrough.game.Board) {
            breakthrough.game.Board b = (breakthrough.game.Board) board;
            // The paper code's row 0 is rank 8; 'w' (player 1) moves first, towards row 0.
            for (int r = 0; r < 8; r++) {
                int empty = 0;
                for (int c = 0; c < 8; c++) {
                    char x = b.board[r][c];
                    if (x == '.') { empty++; continue; }
                    if (empty > 0) { s.append(empty); empty = 0; }
                    s.append(x == 'w' ? 'P' : 'p');
                }
                if (empty > 0) s.append(empty);
                if (r < 7) s.append('/');
            }
            s.append(b.curPlayer == 1 ? " w" : " b");
        } else {
            kalah.game.Board b = (kalah.game.Board) board;
            // Houses 0..5 are South's (player 1) from its left, 6..11 North's from its left.
            for (int h = 0; h < 12; h++) {
                s.append(b.board[h]);
                s.append(h == 5 || h == 11 ? '/' : ',');
            }
            s.append(b.store1).append('-').append(b.store2);
            s.append(b.curPlayer == 1 ? " s" : " n");
            // The rules this board plays: the capturing stone goes to the store even from an
            // empty house, and the game ends when North's houses 1-5 (6..10 here) are empty.
            s.append(' ').append(kalahRules);
        }
        return s.toString();
    }

    /** The paper code's move for imcts's move text `mv`, among that board's legal moves. */
    IMove toPaperMove(IBoard board, String mv) {
        MoveList moves = board.getExpandMoves();
        for (int k = 0; k < moves.size(); k++) {
            IMove m = moves.get(k);
            if (imctsMove(board, m).equals(mv)) return m;
        }
        throw new IllegalStateException("imcts move " + mv + " is not legal in the paper's board:\n" + board);
    }
}
